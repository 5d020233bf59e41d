/// Whether a station sells only to members (`membership_required`): one rule for every provider.
///
/// The provider's own flag decides where it publishes one (WA FuelWatch's `membershipRequired`). Elsewhere the
/// station is members-only when its brand or name says Costco (every Costco fuel station in Australia sells to
/// members only) or its name says "Members Only" ("Costco Canberra Airport (Members Only)"); otherwise unknown (nil).
/// `/v1/prices/cheapest` (by default), `/v1/summary` and advice never recommend a members-only station.
public enum MembersOnly {
    public static func required(_ record: StationRecord) -> Bool? {
        if let published = record.access?.membershipRequired { return published }
        return derived(name: record.name, brand: record.brand) ? true : nil
    }

    /// What the name and brand say where the provider does not.
    static func derived(name: String, brand: String) -> Bool {
        contains(brand, "costco") || contains(name, "costco") || contains(name, "members only")
    }

    /// ASCII case-insensitive substring test: `needle` is lower-case ASCII.
    private static func contains(_ text: String, _ needle: StaticString) -> Bool {
        let wanted = UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount)
        if let found = text.utf8.withContiguousStorageIfAvailable({ search($0, wanted) }) { return found }
        return Array(text.utf8).withUnsafeBufferPointer { search($0, wanted) }
    }

    private static func search(_ bytes: UnsafeBufferPointer<UInt8>, _ wanted: UnsafeBufferPointer<UInt8>) -> Bool {
        guard bytes.count >= wanted.count else { return false }
        outer: for start in 0...(bytes.count - wanted.count) {
            for offset in 0..<wanted.count {
                var byte = bytes[start + offset]
                if byte >= 0x41 && byte <= 0x5A { byte |= 0x20 }
                if byte != wanted[offset] { continue outer }
            }
            return true
        }
        return false
    }
}

extension Station {
    /// `MembersOnly.required(record)`.
    public var membershipRequired: Bool? { MembersOnly.required(record) }
}

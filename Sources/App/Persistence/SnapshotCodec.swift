import Foundation
import Fuel

/// A compact binary form of the snapshot: loading 8,000 stations from JSON took most of the start-up budget,
/// this takes a few milliseconds. Statuses (a handful) stay JSON inside it. Any malformation, and any value
/// outside `LoadLimits`, throws; counts are checked before anything is allocated for them.
enum SnapshotCodec {
    /// Version 2 adds each station's `access` (hours and flags); version 1 files still load, without it.
    static let magic: [UInt8] = Array("PTYSNAP2".utf8)
    static let magicV1: [UInt8] = Array("PTYSNAP1".utf8)
    /// Version 3 is version 2 plus the id high-water mark after `changedAt` (`snapshot.bin` only: the replication
    /// payload carries the registry and keeps version 2).
    static let magicV3: [UInt8] = Array("PTYSNAP3".utf8)
    /// Any version may end with this section: the stations' tomorrow-only prices (a WA site closed today). Written only
    /// when there are some, so a snapshot without them keeps its bytes, and files written before it still load.
    static let tomorrowOnlyTag: [UInt8] = Array("TMRW".utf8)

    struct Malformed: Error, CustomStringConvertible {
        let description: String
    }

    /// With `idMark`, the version 3 form that also records the highest station id ever issued.
    static func encode(_ snapshot: Snapshot, idMark: Int? = nil) throws -> [UInt8] {
        var out = ByteWriter()
        out.bytes.reserveCapacity(snapshot.entries.count * 400)
        out.bytes.append(contentsOf: idMark == nil ? magic : magicV3)
        out.u64(snapshot.version)
        out.optionalDate(snapshot.changedAt)
        if let idMark { out.u64(UInt64(max(0, idMark))) }
        // Sorted keys: the same snapshot must give the same bytes (replication ETags, byte-for-byte checks).
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .secondsSince1970
        encoder.outputFormatting = [.sortedKeys]
        out.blob(Array(try encoder.encode(snapshot.statuses)))
        out.u32(UInt32(snapshot.entries.count))
        for entry in snapshot.entries {
            let station = entry.station
            out.u64(UInt64(bitPattern: Int64(station.id.rawValue)))
            out.string(station.provider.rawValue)
            out.string(station.sourceID)
            out.string(station.name)
            out.string(station.brand)
            out.string(station.address)
            out.string(station.suburb)
            out.string(station.state.rawValue)
            out.optionalString(station.postcode)
            out.double(station.location.latitude)
            out.double(station.location.longitude)
            // A flag byte: 1 for an access blob, 2 for a facts blob (both: 3), each blob following in that order.
            out.bytes.append((station.access == nil ? 0 : 1) | (station.record.facts == nil ? 0 : 2))
            if let access = station.access { out.blob(Array(try encoder.encode(access))) }
            if let facts = station.record.facts { out.blob(Array(try encoder.encode(facts))) }
            out.u32(UInt32(entry.prices.count))
            for price in entry.prices {
                out.string(price.fuel.rawValue)
                out.u64(UInt64(bitPattern: Int64(price.price.tenths)))
                out.double(price.updatedAt.timeIntervalSince1970)
                out.optionalDate(price.seenAt)
                if let tomorrow = price.tomorrow {
                    out.bytes.append(1)
                    out.u64(UInt64(bitPattern: Int64(tomorrow.price.tenths)))
                    out.string(tomorrow.day)
                } else {
                    out.bytes.append(0)
                }
            }
        }
        encodeTomorrowOnly(snapshot.entries, into: &out)
        return out.bytes
    }

    private static func encodeTomorrowOnly(_ entries: [StationEntry], into out: inout ByteWriter) {
        let holding = entries.indices.filter { !entries[$0].tomorrowOnly.isEmpty }
        guard !holding.isEmpty else { return }
        out.bytes.append(contentsOf: tomorrowOnlyTag)
        out.u32(UInt32(holding.count))
        for index in holding {
            out.u32(UInt32(index))
            out.u32(UInt32(entries[index].tomorrowOnly.count))
            for only in entries[index].tomorrowOnly {
                out.string(only.fuel.rawValue)
                out.u64(UInt64(bitPattern: Int64(only.tomorrow.price.tenths)))
                out.string(only.tomorrow.day)
            }
        }
    }

    private static func decodeTomorrowOnly(_ input: inout ByteReader, into entries: inout [StationEntry]) throws {
        guard !input.isAtEnd else { return }
        guard try input.take(tomorrowOnlyTag.count) == tomorrowOnlyTag[...] else { throw Malformed(description: "trailing bytes") }
        let count = Int(try input.u32())
        guard count <= entries.count else { throw Malformed(description: "implausible tomorrow-only count \(count)") }
        for _ in 0..<count {
            let index = Int(try input.u32())
            guard entries.indices.contains(index), entries[index].tomorrowOnly.isEmpty else { throw Malformed(description: "bad tomorrow-only station") }
            let priceCount = Int(try input.u32())
            guard (1...LoadLimits.maxPricesPerStation).contains(priceCount) else { throw Malformed(description: "implausible tomorrow-only price count") }
            var prices: [TomorrowOnlyPrice] = []
            for _ in 0..<priceCount {
                guard let fuel = FuelType(rawValue: try input.string()) else { throw Malformed(description: "unknown fuel") }
                let tenths = Int(Int64(bitPattern: try input.u64()))
                try LoadLimits.check(price: tenths)
                let day = try input.string()
                try LoadLimits.check(CalendarDay(day) != nil, "tomorrow day")
                guard entries[index].price(of: fuel) == nil, !prices.contains(where: { $0.fuel == fuel }) else {
                    throw Malformed(description: "tomorrow-only price for a priced or repeated fuel")
                }
                prices.append(TomorrowOnlyPrice(fuel: fuel, tomorrow: TomorrowPrice(price: PriceTenths(tenths: tenths), day: day)))
            }
            let entry = entries[index]
            entries[index] = StationEntry(station: entry.station, prices: entry.prices, tomorrowOnly: prices)
        }
    }

    static func decode(_ bytes: [UInt8]) throws -> Snapshot { try decodeMarked(bytes).snapshot }

    /// The snapshot and the id high-water mark it records (0 for versions 1 and 2, which record none).
    static func decodeMarked(_ bytes: [UInt8]) throws -> (snapshot: Snapshot, idMark: Int) {
        var input = ByteReader(bytes: bytes)
        let header = try input.take(magic.count)
        guard header == magic[...] || header == magicV1[...] || header == magicV3[...] else {
            throw Malformed(description: "not a Petty snapshot (bad magic)")
        }
        let hasAccess = header != magicV1[...]
        let version = try input.u64()
        let changedAt = try input.optionalDate()
        var idMark = 0
        if header == magicV3[...] {
            let raw = try input.u64()
            guard raw <= UInt64(LoadLimits.maxStationID) else { throw Malformed(description: "implausible id mark \(raw)") }
            idMark = Int(raw)
        }
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .secondsSince1970
        let statusBytes = try input.blob()
        guard statusBytes.count <= LoadLimits.maxStatusesBytes else { throw Malformed(description: "implausible status size") }
        let statuses = try decoder.decode([ProviderStatus].self, from: Data(statusBytes))
        try statuses.forEach(LoadLimits.check)
        guard Set(statuses.map(\.provider)).count == statuses.count else { throw Malformed(description: "duplicate provider status") }
        let count = Int(try input.u32())
        guard count <= bytes.count / 16, count <= LoadLimits.maxStations else { throw Malformed(description: "implausible station count \(count)") }
        var entries: [StationEntry] = []
        entries.reserveCapacity(count)
        for _ in 0..<count {
            let id = Int(Int64(bitPattern: try input.u64()))
            try LoadLimits.check(id: id)
            guard let provider = ProviderID(rawValue: try input.string()) else { throw Malformed(description: "unknown provider") }
            let key = StationKey(provider: provider, sourceID: try input.string())
            let name = try input.string(), brand = try input.string(), address = try input.string(), suburb = try input.string()
            guard let state = AustralianState(rawValue: try input.string()) else { throw Malformed(description: "unknown state") }
            let postcode = try input.optionalString()
            let location = Coordinate(latitude: try input.double(), longitude: try input.double())
            try LoadLimits.check(location)
            var access: StationAccess?
            var facts: StationFacts?
            if hasAccess {
                let flags = try input.byte()
                guard flags <= 3 else { throw Malformed(description: "bad access flag") }
                if flags & 1 != 0 {
                    let blob = try input.blob()
                    guard blob.count <= 4_096 else { throw Malformed(description: "implausible access size") }
                    // `WeeklyHours` and `DayHours` check their own ranges while decoding.
                    access = try decoder.decode(StationAccess.self, from: Data(blob))
                }
                if flags & 2 != 0 {
                    let blob = try input.blob()
                    guard blob.count <= 256 else { throw Malformed(description: "implausible facts size") }
                    facts = try decoder.decode(StationFacts.self, from: Data(blob))
                }
            }
            let priceCount = Int(try input.u32())
            guard priceCount <= LoadLimits.maxPricesPerStation else { throw Malformed(description: "implausible price count \(priceCount)") }
            var prices: [StationPrice] = []
            prices.reserveCapacity(priceCount)
            for _ in 0..<priceCount {
                guard let fuel = FuelType(rawValue: try input.string()) else { throw Malformed(description: "unknown fuel") }
                let tenths = Int(Int64(bitPattern: try input.u64()))
                try LoadLimits.check(price: tenths)
                let updatedAt = Date(timeIntervalSince1970: try input.double())
                try LoadLimits.check(instant: updatedAt.timeIntervalSince1970, "price time")
                let seenAt = try input.optionalDate()
                var tomorrow: TomorrowPrice?
                switch try input.byte() {
                case 0: break
                case 1:
                    let tomorrowTenths = Int(Int64(bitPattern: try input.u64()))
                    try LoadLimits.check(price: tomorrowTenths)
                    let day = try input.string()
                    try LoadLimits.check(CalendarDay(day) != nil, "tomorrow day")
                    tomorrow = TomorrowPrice(price: PriceTenths(tenths: tomorrowTenths), day: day)
                default: throw Malformed(description: "bad tomorrow flag")
                }
                prices.append(StationPrice(fuel: fuel, price: PriceTenths(tenths: tenths), updatedAt: updatedAt, tomorrow: tomorrow, seenAt: seenAt))
            }
            let station = Station(
                id: StationID(id), key: key, name: name, brand: brand, address: address, suburb: suburb,
                state: state, postcode: postcode, location: location, access: access, facts: facts)
            entries.append(StationEntry(station: station, prices: prices))
        }
        try decodeTomorrowOnly(&input, into: &entries)
        guard input.isAtEnd else { throw Malformed(description: "trailing bytes") }
        guard Set(entries.map(\.id)).count == entries.count, Set(entries.map(\.station.key)).count == entries.count else {
            throw Malformed(description: "duplicate station ids or keys")
        }
        if let changedAt { try LoadLimits.check(instant: changedAt.timeIntervalSince1970, "changedAt") }
        return (Snapshot(version: version, changedAt: changedAt, entries: entries, statuses: statuses), idMark)
    }
}

struct ByteWriter {
    var bytes: [UInt8] = []

    mutating func u32(_ value: UInt32) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func u64(_ value: UInt64) { withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) } }
    mutating func double(_ value: Double) { u64(value.bitPattern) }
    mutating func blob(_ value: [UInt8]) {
        u32(UInt32(value.count))
        bytes.append(contentsOf: value)
    }
    mutating func string(_ value: String) { blob(Array(value.utf8)) }
    mutating func optionalString(_ value: String?) {
        guard let value else { return bytes.append(0) }
        bytes.append(1)
        string(value)
    }
    mutating func optionalDate(_ value: Date?) { double(value?.timeIntervalSince1970 ?? .nan) }
}

struct ByteReader {
    let bytes: [UInt8]
    var offset = 0

    var isAtEnd: Bool { offset == bytes.count }

    mutating func take(_ count: Int) throws -> ArraySlice<UInt8> {
        guard count >= 0, count <= bytes.count - offset else { throw SnapshotCodec.Malformed(description: "truncated at byte \(offset)") }
        defer { offset += count }
        return bytes[offset..<(offset + count)]
    }

    mutating func byte() throws -> UInt8 { try take(1).first! }

    mutating func u32() throws -> UInt32 {
        try take(4).reversed().reduce(0) { $0 << 8 | UInt32($1) }
    }

    mutating func u64() throws -> UInt64 {
        try take(8).reversed().reduce(0) { $0 << 8 | UInt64($1) }
    }

    mutating func double() throws -> Double { Double(bitPattern: try u64()) }

    mutating func blob() throws -> ArraySlice<UInt8> { try take(Int(try u32())) }

    mutating func string() throws -> String {
        let raw = try blob()
        guard raw.count <= LoadLimits.maxStringBytes else { throw SnapshotCodec.Malformed(description: "string of \(raw.count) bytes") }
        guard let text = String(validating: raw, as: UTF8.self) else { throw SnapshotCodec.Malformed(description: "invalid UTF-8") }
        return text
    }

    mutating func optionalString() throws -> String? {
        switch try byte() {
        case 0: return nil
        case 1: return try string()
        default: throw SnapshotCodec.Malformed(description: "bad optional flag at byte \(offset - 1)")
        }
    }

    /// NaN means absent; anything else must be a plausible instant.
    mutating func optionalDate() throws -> Date? {
        let value = try double()
        if value.isNaN { return nil }
        try LoadLimits.check(instant: value, "date at byte \(offset - 8)")
        return Date(timeIntervalSince1970: value)
    }
}

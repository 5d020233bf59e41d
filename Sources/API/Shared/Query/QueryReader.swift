import Foundation
import Fuel
import HTTP

/// Reads one endpoint's query parameters by their declared names (`EndpointParameters`). Every failure is a 400
/// whose reason names the parameter and what is allowed.
struct QueryReader<Name: ParameterName> {
    let query: URLQuery

    /// Refuses any name `Name` does not declare (a 400 naming it, `UnknownParameter`).
    init(_ query: URLQuery, operation: String) throws {
        self.query = query
        for (name, _) in query.items where Name(rawValue: name) == nil {
            throw Abort(.badRequest, reason: UnknownParameter(operation: operation, known: Name.allCases.map(\.rawValue)).reason(for: name))
        }
    }

    static var maxIDs: Int { 100 }
    static var maxListItems: Int { 100 }

    func contains(_ name: Name) -> Bool { query.contains(name.rawValue) }

    /// A scalar parameter: given twice it is ambiguous, so it is refused rather than guessed.
    func string(_ name: Name) throws -> String? {
        let key = name.rawValue
        // One pass for the value and whether it repeats: every parameter of every request is read this way.
        var value: String?
        var repeated = false
        let items = query.items
        for index in items.indices where items[index].name.isSameName(as: key) {
            if value == nil { value = items[index].value } else { repeated = true; break }
        }
        guard let value else { return nil }
        if repeated { throw bad("\(key) is given more than once; give it once") }
        return try Self.trimmed(value, key)
    }

    /// A list parameter: comma-separated inside one value (`brand=Shell,BP`, as the spec's `explode: false` says),
    /// or repeated (`brand=Shell&brand=BP`, as generated clients send it), or both: one list in the order given.
    /// Every item must be non-empty. Empty when absent.
    func list(_ name: Name, maxItems: Int = Self.maxListItems) throws -> [String] {
        let key = name.rawValue
        var items: [String] = []
        for pair in query.items where pair.name.isSameName(as: key) {
            let raw = try Self.trimmed(pair.value, key)
            for item in raw.split(separator: ",", omittingEmptySubsequences: false) {
                let text = item.trimmedSpaces
                guard !text.isEmpty else { throw bad("\(key) must be a comma-separated list with no empty items, got '\(raw.prefix(80))'") }
                items.append(text)
                guard items.count <= maxItems else { throw bad("\(key) takes at most \(maxItems) items") }
            }
        }
        return items
    }

    /// A list given as one comma-free value is by far the most common: it is read as a scalar, with no list built.
    func isSingleItem(_ name: Name) -> Bool {
        var seen = 0
        for pair in query.items where pair.name.isSameName(as: name.rawValue) {
            seen += 1
            if seen > 1 || pair.value.utf8.contains(UInt8(ascii: ",")) { return false }
        }
        return true
    }

    private static func trimmed(_ value: String, _ key: String) throws -> String {
        // Values rarely carry spaces: one that starts and ends with something else is already trimmed.
        let untrimmed = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.first?.isSpaceOrTab == false && bytes.last?.isSpaceOrTab == false
        } ?? false
        let trimmed = untrimmed ? value : value.trimmedSpaces
        guard !trimmed.isEmpty else { throw Abort(.badRequest, reason: "\(key) must not be empty") }
        return trimmed
    }

    func bool(_ name: Name) throws -> Bool? {
        guard let raw = try string(name) else { return nil }
        switch raw.asciiLowercased {
        case "true": return true
        case "false": return false
        default: throw bad("\(name.rawValue) must be true or false, got '\(raw.prefix(40))'")
        }
    }

    func double(_ name: Name, in range: ClosedRange<Double>) throws -> Double? {
        guard let raw = try string(name) else { return nil }
        guard let value = DecimalText.double(raw), value.isFinite, range.contains(value) else {
            throw bad("\(name.rawValue) must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got '\(raw.prefix(40))'")
        }
        return value
    }

    func int(_ name: Name, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        try int(name, in: range) ?? fallback
    }

    func int(_ name: Name, in range: ClosedRange<Int>) throws -> Int? {
        guard let raw = try string(name) else { return nil }
        guard let value = Int(raw), range.contains(value) else {
            throw bad("\(name.rawValue) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(raw.prefix(40))'")
        }
        return value
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: Name, as type: T.Type) throws -> T? where T.RawValue == String {
        guard let raw = try string(name) else { return nil }
        // Every choice is lower case, so one given that way is found without lower-casing a copy.
        guard let value = T(rawValue: raw) ?? T(rawValue: raw.asciiLowercased) else {
            throw bad("\(name.rawValue) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got '\(raw.prefix(40))'")
        }
        return value
    }

    /// An upper-case code given in any case (`nsw`, `u91`); an unknown one is refused with the valid ones listed.
    func code<Code: RawRepresentable & CaseIterable>(_ name: Name, listing: String) throws -> Code? where Code.RawValue == String {
        guard let raw = try string(name) else { return nil }
        // Every code is upper case, so one given that way is found without upper-casing a copy.
        guard let code = Code(rawValue: raw) ?? Code(rawValue: raw.asciiUppercased) else {
            throw bad("Unknown \(name.rawValue) '\(raw.prefix(40))'; valid \(listing): \(Code.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return code
    }

    func date(_ name: Name) throws -> Date? {
        guard let raw = try string(name) else { return nil }
        guard let date = ISOTimestamp.parse(raw) else {
            throw bad("\(name.rawValue) must be an ISO 8601 instant, e.g. \(name.rawValue)=2026-01-14T00:00:00Z")
        }
        return date
    }

    /// One station id (`after=3370`).
    func stationID(_ name: Name) throws -> StationID? {
        guard let raw = try string(name) else { return nil }
        guard let id = StationID(raw[...]) else { throw bad("\(name.rawValue) must be a station id (a positive whole number), got '\(raw.prefix(40))'") }
        return id
    }

    func bad(_ reason: String) -> Abort { Abort(.badRequest, reason: reason) }

    static func format(_ value: Double) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

extension UInt8 {
    /// A space or a tab: what parameter values are trimmed of (`trimmedSpaces`, `DecimalText`).
    var isSpaceOrTab: Bool { self == 0x20 || self == 0x09 }
}

extension String {
    /// `==` for parameter names, which rarely match: names of different lengths are told apart without comparing.
    /// Reading 15 declared names over an 8-parameter query takes 0.41-0.48 of the time plain `==` does (5-7 ns a
    /// comparison against 13-15; a standalone `swiftc -O` A/B harness, 11 alternating runs, December 2026).
    @inline(__always)
    func isSameName(as other: String) -> Bool {
        utf8.count == other.utf8.count && self == other
    }
}

extension StringProtocol {
    /// Leading and trailing spaces and tabs removed, without Foundation's character-set machinery (hot path).
    var trimmedSpaces: String {
        let text = Substring(self)
        guard let first = text.utf8.firstIndex(where: { !$0.isSpaceOrTab }), let last = text.utf8.lastIndex(where: { !$0.isSpaceOrTab })
        else { return "" }
        // Short values (numbers, coordinates) stay inline in the String: no heap copy of the whole value first.
        return String(text[first...last])
    }
}

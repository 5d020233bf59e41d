import Foundation
import Fuel
import HTTP

/// Reads and validates query parameters. Every failure is a 400 whose reason names the parameter and what is allowed.
struct QueryParameters {
    let query: URLQuery

    init(_ request: Request) { query = request.query }

    /// Refuses any parameter `known` does not list (a 400 naming it), then reads as above.
    init(_ request: Request, allowing known: KnownParameters) throws {
        query = request.query
        try known.check(query)
    }

    static let maxIDs = 100
    static let maxListItems = 100

    /// Every parameter is single-valued: a name given twice is ambiguous, so it is refused rather than guessed.
    /// Lists are comma-separated inside one value (`list`).
    func string(_ name: String) throws -> String? {
        // One pass for the value and whether it repeats: every parameter of every request is read this way.
        var value: String?
        var repeated = false
        let items = query.items
        for index in items.indices where items[index].name.isSameName(as: name) {
            if value == nil { value = items[index].value } else { repeated = true; break }
        }
        guard let value else { return nil }
        if repeated {
            throw bad("\(name) is given more than once; give it once (lists are comma-separated, e.g. \(name)=a,b)")
        }
        // Values rarely carry spaces: one that starts and ends with something else is already trimmed.
        // Read in place: copying the value to call `withUTF8` cost a retain and a release per parameter read.
        let untrimmed = value.utf8.withContiguousStorageIfAvailable { bytes in
            bytes.first?.isSpaceOrTab == false && bytes.last?.isSpaceOrTab == false
        } ?? false
        let trimmed = untrimmed ? value : value.trimmedSpaces
        guard !trimmed.isEmpty else { throw bad("\(name) must not be empty") }
        return trimmed
    }

    func state() throws -> AustralianState? { try code("state", listing: "values") }

    func fuel() throws -> FuelType? { try code("fuel", listing: "codes") }

    /// An upper-case code given in any case (`nsw`, `u91`); an unknown one is refused with the valid ones listed.
    private func code<Code: RawRepresentable & CaseIterable>(_ name: String, listing: String) throws -> Code?
    where Code.RawValue == String {
        guard let raw = try string(name) else { return nil }
        // Every code is upper case, so one given that way is found without upper-casing a copy.
        guard let code = Code(rawValue: raw) ?? Code(rawValue: raw.uppercased()) else {
            throw bad("Unknown \(name) '\(raw)'; valid \(listing): \(Code.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return code
    }

    /// `fuel=U91,E10`: any of several fuels, duplicates dropped, in the order given.
    func fuels() throws -> [FuelType] {
        let name = "fuel"
        // One code, as almost every request gives it, needs no list.
        if let raw = try string(name), !raw.utf8.contains(UInt8(ascii: ",")), let fuel = FuelType(rawValue: raw) {
            return [fuel]
        }
        var fuels: [FuelType] = []
        for raw in try list(name) {
            guard let fuel = FuelType(rawValue: raw.uppercased()) else {
                throw bad("Unknown \(name) '\(raw)'; valid codes: \(FuelType.allCases.map(\.rawValue).joined(separator: ", ")), comma-separated for any of several")
            }
            if !fuels.contains(fuel) { fuels.append(fuel) }
        }
        return fuels
    }

    /// A comma-separated list in one value (`brand=Shell,BP`); every item must be non-empty. Empty when absent.
    func list(_ name: String) throws -> [String] {
        let maxItems = Self.maxListItems
        guard let raw = try string(name) else { return [] }
        let items = raw.split(separator: ",", omittingEmptySubsequences: false).map(\.trimmedSpaces)
        guard !items.contains(where: \.isEmpty) else { throw bad("\(name) must be a comma-separated list with no empty items, got '\(raw)'") }
        guard items.count <= maxItems else { throw bad("\(name) takes at most \(maxItems) items, got \(items.count)") }
        return items
    }

    func bool(_ name: String) throws -> Bool? {
        guard let raw = try string(name) else { return nil }
        switch raw.lowercased() {
        case "true": return true
        case "false": return false
        default: throw bad("\(name) must be true or false, got '\(raw)'")
        }
    }

    func requiredFuel() throws -> FuelType {
        let name = "fuel"
        guard let fuel = try fuel() else {
            throw bad("\(name) is required; valid codes: \(FuelType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return fuel
    }

    /// `near=lat,lng`
    func coordinate() throws -> Coordinate? {
        let name = "near"
        guard var raw = try string(name) else { return nil }
        // Exactly one comma, both numbers read in place: a point arrives with every nearby request.
        let numbers: (Double, Double)? = raw.withUTF8 { bytes in
            guard let comma = bytes.firstIndex(of: UInt8(ascii: ",")),
                  !bytes[(comma + 1)...].contains(UInt8(ascii: ",")),
                  let lat = DecimalText.double(UnsafeBufferPointer(rebasing: bytes[..<comma])),
                  let lng = DecimalText.double(UnsafeBufferPointer(rebasing: bytes[(comma + 1)...])),
                  lat.isFinite, lng.isFinite
            else { return nil }
            return (lat, lng)
        }
        guard let (lat, lng) = numbers else {
            throw bad("\(name) must be 'lat,lng' in decimal degrees, e.g. \(name)=-33.8688,151.2093")
        }
        let parts = { raw.split(separator: ",", omittingEmptySubsequences: false) }
        guard (-90...90).contains(lat) else { throw bad("\(name) latitude must be between -90 and 90, got \(parts()[0])") }
        guard (-180...180).contains(lng) else { throw bad("\(name) longitude must be between -180 and 180, got \(parts()[1])") }
        return Coordinate(latitude: lat, longitude: lng)
    }

    /// `radius_km` around `near`: the domain's default when `near` comes without one; refused without `near`.
    func radius(near: Coordinate?) throws -> Double? {
        let radius = try double("radius_km", in: 0.1...StationQuery.maximumRadiusKm)
        guard near != nil else {
            if radius != nil { throw bad("\(QueryError.radiusNeedsNear)") }
            return nil
        }
        return radius ?? StationQuery.defaultRadiusKm
    }

    func double(_ name: String, in range: ClosedRange<Double>, default fallback: Double? = nil) throws -> Double? {
        guard let raw = try string(name) else { return fallback }
        guard let value = DecimalText.double(raw), value.isFinite, range.contains(value) else {
            throw bad("\(name) must be a number from \(Self.format(range.lowerBound)) to \(Self.format(range.upperBound)), got '\(raw)'")
        }
        return value
    }

    func int(_ name: String, in range: ClosedRange<Int>, default fallback: Int) throws -> Int {
        guard let raw = try string(name) else { return fallback }
        guard let value = Int(raw), range.contains(value) else {
            throw bad("\(name) must be a whole number from \(range.lowerBound) to \(range.upperBound), got '\(raw)'")
        }
        return value
    }

    /// `bbox=minLat,minLng,maxLat,maxLng`
    func boundingBox() throws -> BoundingBox? {
        let name = "bbox"
        guard let raw = try string(name) else { return nil }
        let numbers = raw.split(separator: ",", omittingEmptySubsequences: false).map { DecimalText.double($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
            throw bad("\(name) must be 'minLat,minLng,maxLat,maxLng', e.g. \(name)=-34.0,150.9,-33.7,151.3")
        }
        do {
            return try BoundingBox(minLat: numbers[0]!, minLng: numbers[1]!, maxLat: numbers[2]!, maxLng: numbers[3]!)
        } catch {
            throw bad("\(name): \(error)")
        }
    }

    /// `ids=1,2,3` (favourites), at most 100.
    func ids() throws -> [StationID]? {
        let name = "ids"
        guard let raw = try string(name) else { return nil }
        let parts = raw.split(separator: ",", omittingEmptySubsequences: false)
        guard parts.count <= Self.maxIDs else { throw bad("\(name) takes at most \(Self.maxIDs) ids, got \(parts.count)") }
        return try parts.map { part in
            guard let id = StationID(part.trimmedSpaces[...]) else {
                throw bad("\(name) must be a comma-separated list of station ids, e.g. \(name)=1,2,3; '\(part)' is not one")
            }
            return id
        }
    }

    /// `q=bond jun`: the words to search names, brands and suburbs for (`SearchText`).
    func searchWords(_ name: String = "q") throws -> [String] {
        guard let raw = try string(name) else { return [] }
        guard raw.count <= SearchText.maxQueryLength else { throw bad("\(name) takes at most \(SearchText.maxQueryLength) characters") }
        let words = SearchText.words(raw)
        guard !words.isEmpty else { throw bad("\(name) must contain a letter or digit, e.g. \(name)=bondi junction") }
        guard words.count <= SearchText.maxQueryWords else { throw bad("\(name) takes at most \(SearchText.maxQueryWords) words, got \(words.count)") }
        return words
    }

    /// `postcode=2026`: four digits.
    func postcode(_ name: String = "postcode") throws -> String? {
        guard let raw = try string(name) else { return nil }
        guard raw.utf8.count == 4, raw.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw bad("\(name) must be an Australian postcode of 4 digits, e.g. \(name)=2026, got '\(raw.prefix(20))'")
        }
        return raw
    }

    /// One station id (`after=3370`).
    func stationID(_ name: String) throws -> StationID? {
        guard let raw = try string(name) else { return nil }
        guard let id = StationID(raw[...]) else { throw bad("\(name) must be a station id (a positive whole number), got '\(raw)'") }
        return id
    }

    func date(_ name: String) throws -> Date? {
        guard let raw = try string(name) else { return nil }
        guard let date = ISOTimestamp.parse(raw) else {
            throw bad("\(name) must be an ISO 8601 instant, e.g. \(name)=2026-01-14T00:00:00Z")
        }
        return date
    }

    func choice<T: RawRepresentable & CaseIterable>(_ name: String, as type: T.Type) throws -> T? where T.RawValue == String {
        guard let raw = try string(name) else { return nil }
        // Every choice is lower case, so one given that way is found without lower-casing a copy.
        guard let value = T(rawValue: raw) ?? T(rawValue: raw.lowercased()) else {
            throw bad("\(name) must be one of \(T.allCases.map(\.rawValue).joined(separator: ", ")), got '\(raw)'")
        }
        return value
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

extension QueryParameters {
    /// `litres` and `l_per_100km` (`FillPlan`): defaults for a `near` list of one fuel, nil for any other list;
    /// either given without `near` and one fuel is a 400.
    func fillPlan(near: Coordinate?, fuels: [FuelType]) throws -> FillPlan? {
        let litres = try double("litres", in: FillPlan.litresRange)
        let consumption = try double("l_per_100km", in: FillPlan.litresPer100KmRange)
        guard near != nil, fuels.count == 1 else {
            if litres != nil || consumption != nil { throw bad("\(QueryError.fillNeedsNearAndFuel)") }
            return nil
        }
        return FillPlan(litres: litres ?? FillPlan.defaultLitres, litresPer100Km: consumption ?? FillPlan.defaultLitresPer100Km)
    }
}

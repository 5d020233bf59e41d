import Foundation
import Fuel
import HTTP

/// The domain values several endpoints take, each read from the name the endpoint declares for it.
extension QueryReader {
    func state(_ name: Name) throws -> AustralianState? { try code(name, listing: "values") }

    func requiredState(_ name: Name) throws -> AustralianState {
        guard let state = try state(name) else {
            throw bad("\(name.rawValue) is required; valid values: \(AustralianState.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return state
    }

    func fuel(_ name: Name) throws -> FuelType? { try code(name, listing: "codes") }

    func requiredFuel(_ name: Name) throws -> FuelType {
        guard let fuel = try fuel(name) else {
            throw bad("\(name.rawValue) is required; valid codes: \(FuelType.allCases.map(\.rawValue).joined(separator: ", "))")
        }
        return fuel
    }

    /// `fuel=U91,E10` (or `fuel=U91&fuel=E10`): any of several fuels, duplicates dropped, in the order given.
    func fuels(_ name: Name) throws -> [FuelType] {
        // One code, as almost every request gives it, needs no list.
        if isSingleItem(name) {
            guard let raw = try string(name) else { return [] }
            if let fuel = FuelType(rawValue: raw) { return [fuel] }
        }
        var fuels: [FuelType] = []
        for raw in try list(name) {
            guard let fuel = FuelType(rawValue: raw.asciiUppercased) else {
                throw bad("Unknown \(name.rawValue) '\(raw.prefix(40))'; valid codes: \(FuelType.allCases.map(\.rawValue).joined(separator: ", ")), comma-separated for any of several")
            }
            if !fuels.contains(fuel) { fuels.append(fuel) }
        }
        return fuels
    }

    /// `near=lat,lng` in decimal degrees.
    func coordinate(_ name: Name) throws -> Coordinate? {
        let key = name.rawValue
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
            throw bad("\(key) must be 'lat,lng' in decimal degrees, e.g. \(key)=-33.8688,151.2093")
        }
        let parts = { raw.split(separator: ",", omittingEmptySubsequences: false) }
        guard (-90...90).contains(lat) else { throw bad("\(key) latitude must be between -90 and 90, got \(parts()[0].prefix(40))") }
        guard (-180...180).contains(lng) else { throw bad("\(key) longitude must be between -180 and 180, got \(parts()[1].prefix(40))") }
        return Coordinate(latitude: lat, longitude: lng)
    }

    /// A radius around `near`: the domain's default when `near` comes without one; refused without `near`.
    func radius(_ name: Name, near: Coordinate?) throws -> Double? {
        let radius = try double(name, in: 0.1...StationQuery.maximumRadiusKm)
        guard near != nil else {
            if radius != nil { throw bad("\(QueryError.radiusNeedsNear)") }
            return nil
        }
        return radius ?? StationQuery.defaultRadiusKm
    }

    /// `bbox=minLat,minLng,maxLat,maxLng`, or the four numbers as repeated values.
    func boundingBox(_ name: Name) throws -> BoundingBox? {
        let key = name.rawValue
        let items = try list(name, maxItems: 4)
        guard !items.isEmpty else { return nil }
        let numbers = items.map { DecimalText.double($0) }
        guard numbers.count == 4, numbers.allSatisfy({ $0 != nil }) else {
            throw bad("\(key) must be 'minLat,minLng,maxLat,maxLng', e.g. \(key)=-34.0,150.9,-33.7,151.3")
        }
        do {
            return try BoundingBox(minLat: numbers[0]!, minLng: numbers[1]!, maxLat: numbers[2]!, maxLng: numbers[3]!)
        } catch {
            throw bad("\(key): \(error)")
        }
    }

    /// `ids=1,2,3` (favourites; or repeated), at most 100. nil when absent.
    func ids(_ name: Name) throws -> [StationID]? {
        let key = name.rawValue
        guard contains(name) else { return nil }
        return try list(name, maxItems: Self.maxIDs).map { part in
            guard let id = StationID(part[...]) else {
                throw bad("\(key) must be a comma-separated list of station ids, e.g. \(key)=1,2,3; '\(part.prefix(40))' is not one")
            }
            return id
        }
    }

    /// `q=bond jun`: the words to search names, brands and suburbs for (`SearchText`).
    func searchWords(_ name: Name) throws -> [String] {
        let key = name.rawValue
        guard let raw = try string(name) else { return [] }
        guard raw.count <= SearchText.maxQueryLength else { throw bad("\(key) takes at most \(SearchText.maxQueryLength) characters") }
        let words = SearchText.words(raw)
        guard !words.isEmpty else { throw bad("\(key) must contain a letter or digit, e.g. \(key)=bondi junction") }
        guard words.count <= SearchText.maxQueryWords else { throw bad("\(key) takes at most \(SearchText.maxQueryWords) words, got \(words.count)") }
        return words
    }

    /// `postcode=2026`: four digits.
    func postcode(_ name: Name) throws -> String? {
        let key = name.rawValue
        guard let raw = try string(name) else { return nil }
        guard raw.utf8.count == 4, raw.utf8.allSatisfy({ (0x30...0x39).contains($0) }) else {
            throw bad("\(key) must be an Australian postcode of 4 digits, e.g. \(key)=2026, got '\(raw.prefix(20))'")
        }
        return raw
    }

    /// Litres to buy and the car's consumption (`FillPlan`): defaults for a `near` list of one fuel, nil for any
    /// other list; either given without `near` and one fuel is a 400.
    func fillPlan(litres: Name, consumption: Name, near: Coordinate?, fuels: [FuelType]) throws -> FillPlan? {
        let amount = try double(litres, in: FillPlan.litresRange)
        let rate = try double(consumption, in: FillPlan.litresPer100KmRange)
        guard near != nil, fuels.count == 1 else {
            if amount != nil || rate != nil { throw bad("\(QueryError.fillNeedsNearAndFuel)") }
            return nil
        }
        return FillPlan(litres: amount ?? FillPlan.defaultLitres, litresPer100Km: rate ?? FillPlan.defaultLitresPer100Km)
    }
}

extension AccessFilter {
    /// `open_now=true` on a list: stations known to be open at `wall`, plus those with unknown hours in a state
    /// whose provider publishes no opening facts at all (so the filter never empties a state for want of data).
    static func openNow(in view: PettyView, wall: Date) -> AccessFilter {
        AccessFilter(
            opening: .openNow, excludesMembersOnly: false, clocks: view.clocks, wall: wall,
            keepsUnknownIn: view.index.statesWithoutAccessFacts)
    }
}

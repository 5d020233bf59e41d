import Foundation

/// One fuel code as filter screens list it: who sells it and how many stations do.
public struct FuelListing: Hashable, Sendable {
    public var fuel: FuelType
    /// States with at least one station pricing the fuel, in `AustralianState` order.
    public var states: [AustralianState]
    /// Stations with a current price for the fuel (tomorrow-only prices do not count).
    public var stationCount: Int
}

/// One brand and how many stations carry it.
public struct BrandListing: Hashable, Sendable {
    /// The spelling most of its stations use (brands match case-insensitively, as `brand=` does).
    public var brand: String
    public var stationCount: Int
}

/// The lists behind `/v1/fuels` and `/v1/brands`, computed once per snapshot.
public enum ReferenceLists {
    /// Every fuel code in `FuelType` order, sold or not, so a client learns the full set of codes.
    public static func fuels(in snapshot: Snapshot) -> [FuelListing] {
        var counts = [Int](repeating: 0, count: FuelType.allCases.count)
        var states = [Set<AustralianState>](repeating: [], count: FuelType.allCases.count)
        for entry in snapshot.entries {
            for price in entry.prices {
                counts[price.fuel.ordinal] += 1
                states[price.fuel.ordinal].insert(entry.station.state)
            }
        }
        return FuelType.allCases.map { fuel in
            FuelListing(fuel: fuel, states: states[fuel.ordinal].sorted(), stationCount: counts[fuel.ordinal])
        }
    }

    /// Brands of the stations in `state` (all states when nil), most stations first, ties by name.
    /// Stations without a brand are left out, and so are EV charging sites: the counts are what `brand=` finds on a list,
    /// which keeps fuel stations by default (`KindFilter`).
    public static func brands(in snapshot: Snapshot, state: AustralianState? = nil) -> [BrandListing] {
        var spellings: [String: [String: Int]] = [:]
        for entry in snapshot.entries where (state == nil || entry.station.state == state) && entry.station.kind == .fuel {
            let brand = entry.station.brand.trimmingCharacters(in: .whitespaces)
            guard !brand.isEmpty else { continue }
            spellings[StationQuery.fold(brand), default: [:]][brand, default: 0] += 1
        }
        let listings = spellings.values.map { names in
            let name = names.max { $0.value != $1.value ? $0.value < $1.value : $0.key > $1.key }!.key
            return BrandListing(brand: name, stationCount: names.values.reduce(0, +))
        }
        return listings.sorted {
            $0.stationCount != $1.stationCount ? $0.stationCount > $1.stationCount : $0.brand.lowercased() < $1.brand.lowercased()
        }
    }
}

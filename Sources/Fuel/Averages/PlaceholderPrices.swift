/// Prices that are one number typed into several pumps of a station rather than real prices: placeholders for every
/// fuel they stand for, whatever each fuel's band says on its own.
///
/// - A value shared by two or more fuels of a station, and outside the band of one of them, is a placeholder for
///   all of them (Top End Servo's 299.9 for U91 and diesel; Mitta Mitta's 300 for U91 and P95).
/// - A station quoting the same value for every fuel, three or more, is a placeholder for all of them (Caltex
///   Reservoir's 350.0 for U91, E10, P98 and premium diesel). Two fuels at one price happen (U91 and E10).
public struct PlaceholderPrices: Sendable, Hashable {
    /// Station id raw value and fuel ordinal, packed.
    private let flagged: Set<Int>

    public init(snapshot: Snapshot, bands: [StateFuel: PlausibleBand]) {
        var flagged = Set<Int>()
        for entry in snapshot.entries where entry.prices.count >= 2 {
            var fuelsByValue: [Int: [FuelType]] = [:]
            for price in entry.prices { fuelsByValue[price.price.tenths, default: []].append(price.fuel) }
            let sameEverywhere = fuelsByValue.count == 1 && entry.prices.count >= 3
            for (tenths, fuels) in fuelsByValue where fuels.count >= 2 {
                let outside = fuels.contains { fuel in
                    bands[StateFuel(entry.station.state, fuel)]?.contains(PriceTenths(tenths: tenths)) == false
                }
                guard sameEverywhere || outside else { continue }
                for fuel in fuels { flagged.insert(Self.slot(entry.id, fuel)) }
            }
        }
        self.flagged = flagged
    }

    public func contains(_ station: StationID, _ fuel: FuelType) -> Bool {
        !flagged.isEmpty && flagged.contains(Self.slot(station, fuel))
    }

    private static func slot(_ station: StationID, _ fuel: FuelType) -> Int { station.rawValue &* 64 &+ fuel.ordinal }
}

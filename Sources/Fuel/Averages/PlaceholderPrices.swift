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
        let entries = snapshot.entries
        for slot in entries.indices where entries[slot].prices.count >= 2 {
            // A station has a dozen prices at most: comparing them pairwise beats grouping them in a dictionary.
            let prices = entries[slot].prices
            let state = entries[slot].station.state
            let id = entries[slot].id
            let sameEverywhere = prices.count >= 3 && prices.allSatisfy { $0.price == prices[0].price }
            for first in prices.indices where !prices[..<first].contains(where: { $0.price == prices[first].price }) {
                let value = prices[first].price
                let sharing = prices[first...].lazy.filter { $0.price == value }
                guard sharing.count >= 2 else { continue }
                let outside = sharing.contains { bands[StateFuel(state, $0.fuel)]?.contains(value) == false }
                guard sameEverywhere || outside else { continue }
                for price in sharing { flagged.insert(Self.slot(id, price.fuel)) }
            }
        }
        self.flagged = flagged
    }

    public func contains(_ station: StationID, _ fuel: FuelType) -> Bool {
        !flagged.isEmpty && flagged.contains(Self.slot(station, fuel))
    }

    private static func slot(_ station: StationID, _ fuel: FuelType) -> Int { station.rawValue &* 64 &+ fuel.ordinal }
}

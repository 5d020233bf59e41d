import Foundation

/// Average, min, max and station count per state and fuel, computed once per snapshot.
///
/// Left out: tomorrow prices (they are not on sale yet), and prices set more than
/// `PricePolicy.averageMaxAge` (7 days) before their provider's `asOf` (NSW lists prices years old).
/// Providers without an `asOf` have no cut-off.
public struct Averages: Sendable, Hashable {
    /// Sorted by state, then fuel.
    public let all: [FuelAverage]
    private let positions: [StateFuel: Int]

    public init(snapshot: Snapshot, states: Set<AustralianState>? = nil) {
        var cutoffs: [ProviderID: Date] = [:]
        for status in snapshot.statuses {
            if let asOf = status.asOf { cutoffs[status.provider] = asOf.addingTimeInterval(-PricePolicy.averageMaxAge) }
        }
        struct Accumulator {
            var sum = 0
            var count = 0
            var min = Int.max
            var max = Int.min

            mutating func add(_ tenths: Int) {
                sum += tenths
                count += 1
                min = Swift.min(min, tenths)
                max = Swift.max(max, tenths)
            }
        }
        var totals: [StateFuel: Accumulator] = [:]
        for entry in snapshot.entries {
            let state = entry.station.state
            if let states, !states.contains(state) { continue }
            let cutoff = cutoffs[entry.station.provider]
            for price in entry.prices {
                if let cutoff, price.updatedAt < cutoff { continue }
                totals[StateFuel(state, price.fuel), default: Accumulator()].add(price.price.tenths)
            }
        }
        let all = totals.keys.sorted().map { key -> FuelAverage in
            let total = totals[key]!
            return FuelAverage(
                state: key.state, fuel: key.fuel, average: Double(total.sum) / Double(total.count) / 10,
                min: PriceTenths(tenths: total.min), max: PriceTenths(tenths: total.max), stationCount: total.count)
        }
        self.all = all
        self.positions = Dictionary(uniqueKeysWithValues: all.enumerated().map { (StateFuel($1.state, $1.fuel), $0) })
    }

    public subscript(state: AustralianState, fuel: FuelType) -> FuelAverage? {
        positions[StateFuel(state, fuel)].map { all[$0] }
    }

    /// One state's averages, sorted by fuel.
    public func averages(in state: AustralianState) -> [FuelAverage] {
        all.filter { $0.state == state }
    }

    public var states: [AustralianState] {
        var seen: [AustralianState] = []
        for average in all where seen.last != average.state { seen.append(average.state) }
        return seen
    }
}

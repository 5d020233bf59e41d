import Foundation

/// Average, median, min, max and station count per state and fuel (and per region where a state has regions),
/// computed once per snapshot.
///
/// Only prices that count (`PriceJudge`) take part: current (set within `PricePolicy.currentWithinDays` of their
/// provider's `asOf`; providers without an `asOf` have no cut-off) and plausible (inside the state's
/// `PlausibleBand` for the fuel, and no `PlaceholderPrices`). Tomorrow prices never do: they are not on sale yet.
public struct Averages: Sendable, Hashable {
    /// State rows, sorted by state, then fuel.
    public let all: [FuelAverage]
    /// Region rows (`PriceRegion.regionalStates`), sorted by state, fuel, region.
    public let regional: [FuelAverage]
    private let positions: [StateFuel: Int]

    public init(snapshot: Snapshot, states: Set<AustralianState>? = nil) {
        self.init(snapshot: snapshot, judge: snapshot.judge, states: states)
    }

    public init(snapshot: Snapshot, judge: PriceJudge, states: Set<AustralianState>? = nil) {
        struct Key: Hashable {
            var stateFuel: StateFuel
            var region: PriceRegion?
        }
        var totals: [Key: [Int]] = [:]
        for entry in snapshot.entries {
            let state = entry.station.state
            if let states, !states.contains(state) { continue }
            let region = PriceRegion.of(entry.station)
            for price in entry.prices where judge.standing(of: price, at: entry.station) == .counts {
                let stateFuel = StateFuel(state, price.fuel)
                totals[Key(stateFuel: stateFuel, region: nil), default: []].append(price.price.tenths)
                if let region { totals[Key(stateFuel: stateFuel, region: region), default: []].append(price.price.tenths) }
            }
        }
        func row(_ key: Key) -> FuelAverage {
            let values = totals[key]!
            return FuelAverage(
                state: key.stateFuel.state, fuel: key.stateFuel.fuel, region: key.region,
                average: Double(values.reduce(0, +)) / Double(values.count) / 10,
                median: PriceJudge.median(of: values) / 10,
                min: PriceTenths(tenths: values.min()!), max: PriceTenths(tenths: values.max()!), stationCount: values.count)
        }
        let all = totals.keys.filter { $0.region == nil }.map(\.stateFuel).sorted().map { row(Key(stateFuel: $0, region: nil)) }
        self.all = all
        var regionKeys: [Key] = totals.keys.filter { $0.region != nil }
        regionKeys.sort { (a: Key, b: Key) -> Bool in
            if a.stateFuel != b.stateFuel { return a.stateFuel < b.stateFuel }
            return a.region! < b.region!
        }
        regional = regionKeys.map(row)
        self.positions = Dictionary(uniqueKeysWithValues: all.enumerated().map { (StateFuel($1.state, $1.fuel), $0) })
    }

    public subscript(state: AustralianState, fuel: FuelType) -> FuelAverage? {
        positions[StateFuel(state, fuel)].map { all[$0] }
    }

    public subscript(state: AustralianState, fuel: FuelType, region: PriceRegion) -> FuelAverage? {
        regional.first { $0.state == state && $0.fuel == fuel && $0.region == region }
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

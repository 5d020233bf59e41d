import Foundation
import Fuel

/// `alert-evaluation`: the evaluator's in-memory cost. Builds `--alerts` alerts over `--stations` synthetic NSW
/// stations (70 % on 1 to 5 favourite stations: price_below, price_drop, price_rise; 20 % cheapest_changed and 10 %
/// price_below `near` a station within 2 to 25 km), reports the index's build time and RSS, then evaluates a poll
/// with `--changes` changed U91 prices `--runs` times (the median is the figure; target <= 50 ms).
/// SYNTHETIC: generated stations, prices and alerts.
enum AlertEvaluation {
    static func run(_ options: Options) throws {
        let stationCount = try options.int("stations", default: 8_000)
        let alertCount = try options.int("alerts", default: 1_000_000)
        let changeCount = try options.int("changes", default: 2_000)
        let runs = try options.int("runs", default: 9)
        var random = SeededRandom(seed: UInt64(try options.int("seed", default: 42)))
        let t0 = Date(timeIntervalSince1970: 1_796_000_000)
        let cities = [(-33.87, 151.21), (-32.93, 151.78), (-34.42, 150.89), (-35.28, 149.13), (-33.28, 149.10)]
        let stations = (0..<stationCount).map { n -> StationRecord in
            let city = cities[n % cities.count]
            return StationRecord(key: StationKey(provider: .nsw, sourceID: "s\(n)"), name: "Station \(n)", brand: "Ampol", address: "1 Main St",
                                 suburb: "Town", state: .NSW, postcode: "2000",
                                 location: Coordinate(latitude: city.0 + random.uniform(-0.3...0.3), longitude: city.1 + random.uniform(-0.3...0.3)))
        }
        let first = ProviderUpdate(provider: .nsw, stations: stations, prices: stations.map {
            PriceRecord(station: $0.key, fuel: .U91, price: PriceTenths(tenths: 1_850 + Int(random.next() % 200)), updatedAt: t0)
        }, asOf: t0)
        let (before, _) = Dataset().merging(first, source: .live, at: t0)
        let t1 = t0.addingTimeInterval(600)
        var changed = Set<Int>()
        while changed.count < min(changeCount, stationCount) { changed.insert(Int(random.next() % UInt64(stationCount))) }
        let delta = ProviderUpdate(provider: .nsw, stations: [], prices: changed.sorted().map {
            PriceRecord(station: stations[$0].key, fuel: .U91, price: PriceTenths(tenths: 1_800 + Int(random.next() % 300)), updatedAt: t1)
        }, asOf: t1, isDelta: true)
        let (after, report) = before.merging(delta, source: .live, at: t1)
        guard report.isApplied else { throw BenchError("the changed prices were not applied: \(report.outcome)") }
        let previous = before.snapshot
        let index = FuelIndex(snapshot: after.snapshot)
        let ids = after.snapshot.entries.map(\.id)
        let zone = TimeZone(identifier: "Australia/Sydney")!

        let rssBefore = ProcStats.statusKB("VmRSS")
        let buildStarted = ProcStats.millis()
        var alerts = AlertIndex()
        for n in 0..<alertCount {
            let roll = random.next() % 10
            let definition: AlertDefinition
            if roll < 7 {
                let favourites = (0..<(1 + Int(random.next() % 5))).map { _ in ids[Int(random.next() % UInt64(ids.count))] }
                let kind: AlertDefinition.Kind = [.priceBelow, .priceDrop, .priceRise][Int(random.next() % 3)]
                definition = AlertDefinition(kind: kind, fuel: .U91, target: .stations(favourites),
                                             threshold: PriceTenths(tenths: 1_800 + Int(random.next() % 100)), change: PriceTenths(tenths: 20))
            } else {
                let center = after.snapshot.entries[Int(random.next() % UInt64(ids.count))].station.location
                let radius = random.uniform(2...25)
                definition = roll < 9
                    ? AlertDefinition(kind: .cheapestChanged, fuel: .U91, target: .near(center, radiusKm: radius), change: PriceTenths(tenths: 20))
                    : AlertDefinition(kind: .priceBelow, fuel: .U91, target: .near(center, radiusKm: radius), threshold: PriceTenths(tenths: 1_820))
            }
            alerts.upsert(WatchedAlert(id: Int64(n + 1), deviceID: Int64(n / 5 + 1), definition: definition, zone: zone))
        }
        let buildMillis = ProcStats.millis() - buildStarted
        let rssAfter = ProcStats.statusKB("VmRSS")
        print("alert-evaluation: index of \(alertCount) alerts built in \(fixed(buildMillis / 1000, 2)) s, +\(fixed(Double(rssAfter - rssBefore) / 1024)) MB RSS")

        let evaluator = AlertEvaluator(index: alerts)
        let poll = AlertPoll(index: index, after: previous, now: t1)
        var timings: [Double] = []
        var decisions = 0
        for _ in 0..<runs {
            let started = ProcStats.millis()
            let outcome = evaluator.evaluate(poll, states: [:])
            timings.append(ProcStats.millis() - started)
            decisions = outcome.decisions.count
        }
        print("alert-evaluation: a poll of \(poll.changes.count) changed prices over \(alertCount) alerts: median \(fixed(median(timings), 1)) ms (min \(fixed(timings.min() ?? 0, 1)), max \(fixed(timings.max() ?? 0, 1))), \(decisions) decisions; target <= 50 ms")
        withExtendedLifetime(alerts) {}
    }
}

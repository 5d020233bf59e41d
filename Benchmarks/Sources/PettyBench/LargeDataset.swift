import App
import Foundation
import Fuel
import Providers

/// `make-large-dataset`: a data directory with every state the app can hold, for the memory, start-up and
/// merge-under-load rows. SYNTHETIC-EXTENDED: the real bundled samples (NSW+ACT, VIC, WA with prices) plus
/// QLD's real recorded site list with generated prices, plus generated SA/TAS stations to reach the station
/// target, plus generated daily history. Deterministic for a given seed.
enum LargeDataset {
    /// Fuels generated stations sell, most common first; every station sells the first.
    static let fuelOrder: [FuelType] = [.U91, .DL, .E10, .P98, .P95, .PDL, .LPG]
    /// Fallback means (c/L) when the real NSW sample has no average for a fuel.
    static let fallbackCents: [FuelType: Double] = [.U91: 185, .E10: 183, .P95: 198, .P98: 207, .DL: 195, .PDL: 205, .LPG: 105]

    static func run(_ options: Options) throws {
        guard let out = options.string("out") else { throw BenchError("make-large-dataset needs --out DIR") }
        let stationTarget = try options.int("stations", default: 8_000)
        let priceTarget = try options.int("prices", default: 30_000)
        let days = try options.int("days", default: 90)
        var random = SeededRandom(seed: UInt64(try options.int("seed", default: 42)))
        let started = ProcStats.millis()

        // 1. Exactly what a fresh server seeds from the bundle: NSW+ACT, VIC, WA (real recorded prices).
        var dataset = try BenchmarkFacade.sampleDataset()
        let realStations = dataset.snapshot.stationCount
        let realPrices = dataset.snapshot.priceCount
        // The data's own clock: generated prices and history end where the samples do.
        let clock = dataset.snapshot.statuses.compactMap(\.asOf).max() ?? Date()
        let nswAverages = Averages(snapshot: dataset.snapshot)
        let meanCents = Dictionary(uniqueKeysWithValues: fuelOrder.map { fuel in
            (fuel, nswAverages[.NSW, fuel]?.average ?? fallbackCents[fuel]!)
        })

        // 2. QLD: the real recorded site list (InformedSourcesAdapter.sites over the bundled GetFullSiteDetails).
        let bundle = try SampleData.load()
        guard let qldSites = bundle.current.first(where: { $0.provider == .qld }), !qldSites.stations.isEmpty else {
            throw BenchError("the sample bundle has no QLD site list")
        }
        // 3. SA and TAS: generated stations to reach the station target (there is no recorded price data for them).
        let missing = max(0, stationTarget - realStations - qldSites.stations.count)
        let saCount = missing * 55 / 100
        let sa = syntheticStations(.sa, count: saCount, random: &random)
        let tas = syntheticStations(.tas, count: missing - saCount, random: &random)

        // Prices: spread what the price target still needs over every generated station.
        let generatedStations = qldSites.stations.count + sa.count + tas.count
        let perStation = generatedStations == 0 ? 0 : max(1, Double(priceTarget - realPrices) / Double(generatedStations))
        for (provider, stations) in [(ProviderID.qld, qldSites.stations), (.sa, sa), (.tas, tas)] where !stations.isEmpty {
            let prices = stations.flatMap { station in
                syntheticPrices(for: station, perStation: perStation, means: meanCents, clock: clock, random: &random)
            }
            let update = ProviderUpdate(provider: provider, stations: stations, prices: prices, asOf: prices.map(\.updatedAt).max() ?? clock)
            let (merged, report) = dataset.merging(update, source: .sample, at: update.asOf)
            guard report.isApplied else { throw BenchError("generated \(provider.rawValue) update not applied: \(report.outcome)") }
            dataset = merged
        }

        // 4. History: `days` daily points for every (state, fuel) with a current average, ending on the state's
        // data day, derived from today's real average with a deterministic cycle and wiggle. Real recorded points
        // (VIC, WA and each state's seeding day) win over generated ones on the same day.
        let averages = Averages(snapshot: dataset.snapshot)
        var series: [StateFuel: [DailyPoint]] = [:]
        for average in averages.all {
            let provider = dataset.snapshot.entries.first { $0.station.state == average.state }!.station.provider
            let newest = average.state.day(containing: dataset.snapshot.asOf(provider) ?? clock)
            let phase = random.uniform(0...(2 * .pi))
            var points: [DailyPoint] = []
            for offset in stride(from: days - 1, through: 0, by: -1) {
                let age = Double(offset)
                let factor = 1 + 0.035 * sin(2 * .pi * age / 19 + phase) + 0.02 * age / Double(days) + random.uniform(-0.006...0.006)
                points.append(DailyPoint(
                    day: newest.advanced(by: -offset).description, average: average.average * factor,
                    min: PriceTenths(tenths: Int((Double(average.min.tenths) * factor).rounded())),
                    max: PriceTenths(tenths: Int((Double(average.max.tenths) * factor).rounded())),
                    stationCount: average.stationCount))
            }
            series[StateFuel(average.state, average.fuel)] = points + dataset.history.points(state: average.state, fuel: average.fuel)
        }
        for (key, points) in dataset.history.series where series[key] == nil { series[key] = points }
        dataset.history = History(series: series)

        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: true)
        try BenchmarkFacade.save(dataset, to: out)
        guard let reloaded = BenchmarkFacade.load(from: out), reloaded.snapshot.stationCount == dataset.snapshot.stationCount else {
            throw BenchError("the written data directory does not load back")
        }

        // Report.
        let snapshot = dataset.snapshot
        var byState: [AustralianState: (stations: Int, prices: Int)] = [:]
        for entry in snapshot.entries { byState[entry.station.state, default: (0, 0)].stations += 1; byState[entry.station.state]!.prices += entry.prices.count }
        let historyPoints = dataset.history.series.values.reduce(0) { $0 + $1.count }
        let historyDays = dataset.history.series.values.map(\.count)
        let sizes = ["snapshot.bin", "registry.json", "history.json"].map { name -> String in
            let size = (try? FileManager.default.attributesOfItem(atPath: (out as NSString).appendingPathComponent(name))[.size] as? Int) ?? 0
            return "\(name) \(size / 1024) KB"
        }
        print("SYNTHETIC-EXTENDED dataset written to \(out) in \(Int(ProcStats.millis() - started)) ms (seed-deterministic):")
        print("  real recorded samples: \(realStations) stations, \(realPrices) prices (NSW+ACT, VIC, WA)")
        print("  QLD: \(qldSites.stations.count) real recorded sites, SYNTHETIC prices")
        print("  SA: \(sa.count), TAS: \(tas.count) SYNTHETIC stations with SYNTHETIC prices")
        print("  history: \(dataset.history.series.count) (state, fuel) series, \(historyPoints) daily points (\(historyDays.min() ?? 0)–\(historyDays.max() ?? 0) days each), SYNTHETIC except the recorded sample days")
        print("  by state: " + byState.keys.sorted().map { "\($0.rawValue) \(byState[$0]!.stations)/\(byState[$0]!.prices)" }.joined(separator: ", ") + " (stations/prices)")
        print("  total: \(snapshot.stationCount) stations, \(snapshot.priceCount) prices; " + sizes.joined(separator: ", "))
        print("LARGE_DATASET stations=\(snapshot.stationCount) prices=\(snapshot.priceCount) series=\(dataset.history.series.count) points=\(historyPoints)")
    }

    // MARK: Generators

    private struct Town {
        var name: String
        var postcode: Int
        var latitude: Double
        var longitude: Double
        var spread: Double
    }

    private static let towns: [ProviderID: [Town]] = [
        .sa: [
            Town(name: "Adelaide", postcode: 5000, latitude: -34.9285, longitude: 138.6007, spread: 0.25),
            Town(name: "Mount Gambier", postcode: 5290, latitude: -37.8284, longitude: 140.7804, spread: 0.08),
            Town(name: "Whyalla", postcode: 5600, latitude: -33.0333, longitude: 137.5667, spread: 0.06),
            Town(name: "Port Augusta", postcode: 5700, latitude: -32.4925, longitude: 137.7658, spread: 0.05),
            Town(name: "Murray Bridge", postcode: 5253, latitude: -35.1197, longitude: 139.2756, spread: 0.06),
            Town(name: "Victor Harbor", postcode: 5211, latitude: -35.5522, longitude: 138.6228, spread: 0.05),
        ],
        .tas: [
            Town(name: "Hobart", postcode: 7000, latitude: -42.8821, longitude: 147.3272, spread: 0.15),
            Town(name: "Launceston", postcode: 7250, latitude: -41.4332, longitude: 147.1441, spread: 0.1),
            Town(name: "Devonport", postcode: 7310, latitude: -41.1806, longitude: 146.3464, spread: 0.06),
            Town(name: "Burnie", postcode: 7320, latitude: -41.0556, longitude: 145.9036, spread: 0.05),
        ],
    ]
    private static let brands = ["Ampol", "BP", "Shell", "United", "7-Eleven", "Puma Energy", "Liberty", "OTR", "Metro Fuel", "Independent"]
    private static let streets = ["Main Road", "Princes Highway", "High Street", "Station Street", "Church Street", "Bridge Road"]

    private static func syntheticStations(_ provider: ProviderID, count: Int, random: inout SeededRandom) -> [StationRecord] {
        let state: AustralianState = provider == .sa ? .SA : .TAS
        let towns = towns[provider]!
        return (0..<count).map { n in
            // The first town (the capital) gets about half the stations.
            let town = random.unit() < 0.5 ? towns[0] : towns[Int(random.next() % UInt64(towns.count))]
            let brand = brands[Int(random.next() % UInt64(brands.count))]
            return StationRecord(
                key: StationKey(provider: provider, sourceID: "synthetic-\(n + 1)"),
                name: "\(brand) \(town.name) \(n + 1) (synthetic)", brand: brand,
                address: "\(1 + random.next() % 400) \(streets[Int(random.next() % UInt64(streets.count))])",
                suburb: town.name, state: state, postcode: String(town.postcode + Int(random.next() % 20)),
                location: Coordinate(
                    latitude: town.latitude + random.uniform(-town.spread...town.spread),
                    longitude: town.longitude + random.uniform(-town.spread...town.spread)))
        }
    }

    /// `perStation` fuels on average (U91 always), each near the NSW mean with a per-station offset,
    /// set within the three days before `clock`.
    private static func syntheticPrices(
        for station: StationRecord, perStation: Double, means: [FuelType: Double], clock: Date, random: inout SeededRandom
    ) -> [PriceRecord] {
        let whole = Int(perStation)
        let count = min(fuelOrder.count, max(1, whole + (random.unit() < perStation - Double(whole) ? 1 : 0)))
        let stationOffset = random.uniform(-8...12)
        return fuelOrder.prefix(count).map { fuel in
            let cents = means[fuel]! + stationOffset + random.uniform(-3...3)
            return PriceRecord(
                station: station.key, fuel: fuel, price: PriceTenths(cents: (cents * 10).rounded() / 10),
                updatedAt: clock.addingTimeInterval(-random.uniform(0...(3 * 86_400)).rounded()))
        }
    }
}

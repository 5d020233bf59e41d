import API
import Foundation
import Fuel
import HTTP
import Providers
import Clocks

/// Loads the persisted dataset, or seeds a fresh one from the bundled sample payloads.
struct DataBootstrap {
    let config: AppConfiguration
    let logger: Logger
    /// The app's wall clock, which the store's renders judge `open_now` by.
    var clock: @Sendable () -> Date = { Date() }

    struct Result {
        var store: PettyStore
        var directory: DataDirectory
        /// The version already on disk (nil when the seeded data still needs saving).
        var savedVersion: UInt64?
        /// What loading could not use; `/health` shows it.
        var loadProblems: [String] = []
    }

    func makeStore() throws -> Result {
        let directory = DataDirectory(path: config.dataDirectory, logger: logger)
        let started = MonotonicClock.millis()
        let loaded = directory.load()
        var dataset = loaded.dataset
        // After a repair (a file moved aside, registry entries dropped) the disk no longer matches: save again.
        var savedVersion: UInt64? = loaded.hadSnapshot && loaded.problems.isEmpty ? dataset.snapshot.version : nil
        if loaded.hadSnapshot {
            logger.notice("loaded \(dataset.snapshot.stationCount) stations, \(dataset.snapshot.priceCount) prices (snapshot v\(dataset.snapshot.version)) from \(directory.path) in \(Self.millis(since: started)) ms")
        } else if config.loadSampleData {
            dataset = try seedFromSamples(dataset)
            savedVersion = nil
        } else {
            logger.warning("no persisted data in \(directory.path) and sample data is off: serving nothing until a provider answers")
        }
        let store = makePettyStore(dataset, clock: clock)
        return Result(store: store, directory: directory, savedVersion: savedVersion, loadProblems: loaded.problems)
    }

    func makeStore(from dataset: Dataset) -> Result {
        Result(store: makePettyStore(dataset, clock: clock), directory: DataDirectory(path: config.dataDirectory, logger: logger), savedVersion: nil)
    }

    func seedFromSamples(_ dataset: Dataset) throws -> Dataset {
        let started = MonotonicClock.millis()
        let bundle = try SampleData.load()
        var dataset = dataset
        dataset.history = History.replaying(bundle.history, into: dataset.history, source: .sample)
        // Perth's metro U91 before and between the captured WA days: FuelWatch's own published Metro averages.
        dataset.history = dataset.history.fillingMetro(.perth, .U91, with: try SampleData.perthMetroReport())
        // Each station's price history starts from the recorded days (VIC's 50-day panel, WA's daily captures).
        // Replayed with scratch ids, so the current payloads below assign ids exactly as without it; re-keyed after.
        let seeded = StationHistory.replaying(bundle.history, registry: StationRegistry(), source: .sample)
        // A recorded history that follows a panel of stations (VIC: 120 of 1,754) must not end on a point over the
        // whole state: the cycle position would then compare different populations. Such a current payload is
        // served whole, and adds the point of the panel's stations for the day it describes, so the trend ends on
        // the day `/v1/averages` describes.
        let panelSizes = Dictionary(bundle.history.map { ($0.provider, $0.stations.count) }, uniquingKeysWith: max)
        var panels: [ProviderID: Set<StationKey>] = [:]
        for update in bundle.history { panels[update.provider, default: []].formUnion(update.stations.map(\.key)) }
        for update in bundle.current {
            // QLD and SA were recorded as station lists only (no price payload exists); priceless stations
            // would only be noise, so those states wait for live data.
            guard !update.prices.isEmpty else {
                logger.info("sample \(update.provider.rawValue): \(update.stations.count) stations but no recorded prices; not served until live data arrives")
                continue
            }
            let (merged, report) = dataset.merging(update, source: .sample, at: update.asOf)
            let history = dataset.history
            dataset = merged
            if let size = panelSizes[update.provider], size < update.stations.count, let panel = panels[update.provider], report.isApplied {
                dataset.history = history.recording(
                    dataset.snapshot.keeping(panel), provider: update.provider, describedDay: update.describedDay)
            }
            if !report.isApplied { logger.warning("sample \(update.provider.rawValue) not applied: \(report.outcome)") }
        }
        var stationHistory = seeded.history.rekeyed(from: seeded.registry, to: dataset.registry)
        for status in dataset.snapshot.statuses { stationHistory = stationHistory.recording(dataset.snapshot, provider: status.provider) }
        dataset.stationHistory = stationHistory
        let states = Set(dataset.snapshot.entries.map(\.station.state)).sorted().map(\.rawValue).joined(separator: ",")
        logger.notice("no persisted data: seeded SAMPLE data (\(dataset.snapshot.stationCount) stations, \(dataset.snapshot.priceCount) prices, states \(states), \(bundle.history.count) historical payloads) in \(Self.millis(since: started)) ms")
        return dataset
    }

    static func millis(since start: Int64) -> Int { Int(MonotonicClock.millis() - start) }
}

import API
import Foundation
import Fuel
import HTTP
import Providers

/// The one place an application is assembled; `Run` and the tests both call it.
/// `clock` is injectable so tests can pin "now".
/// `dataset`, when given, replaces loading the data directory (tests start from a known store).
public func buildApplication(
    _ config: AppConfiguration, logger: Logger? = nil, clock: @escaping @Sendable () -> Date = { Date() },
    dataset: Dataset? = nil
) throws -> Application {
    try assembleApplication(config, logger: logger, clock: clock, dataset: dataset).app
}

/// `buildApplication`, also handing back the store it serves from (tests drive pollers against it step by step).
func assembleApplication(
    _ config: AppConfiguration, logger: Logger? = nil, clock: @escaping @Sendable () -> Date = { Date() },
    dataset: Dataset? = nil
) throws -> (app: Application, store: PettyStore) {
    let logger = logger ?? Logger(label: "petty", level: config.logLevel)
    let app = Application(environment: config.environment, logger: logger)
    app.server = config.server
    app.server.hostname = config.hostname
    app.server.port = config.port
    if let threads = config.threads { app.server.threads = threads }

    let bootstrap = DataBootstrap(config: config, logger: logger.labelled("data"), clock: clock)
    let store = try dataset.map(bootstrap.makeStore(from:)) ?? bootstrap.makeStore()
    let persistence = PersistenceService(
        store: store.store, directory: store.directory, logger: logger.labelled("data"), savedVersion: store.savedVersion,
        loadProblems: store.loadProblems)
    app.register(service: persistence)
    // A follower copies the leader's dataset instead of polling: one set of provider calls per deployment.
    var follower: FollowerService?
    var polls: PollerGroup?
    var fleet: FleetService?
    if let settings = try config.fleet.settings(hostname: config.hostname, port: config.port) {
        let service = FleetService(settings: settings, store: store.store, providers: config.providers, limits: config.followLimits, logger: logger)
        app.register(service: service)
        (fleet, polls) = (service, service.pollers.group)
    } else if let leader = config.followURL {
        let service = FollowerService(
            leader: leader, store: store.store, interval: config.followSeconds, limits: config.followLimits,
            logger: logger.labelled("follower"), clock: clock)
        app.register(service: service)
        follower = service
    } else {
        polls = registerProviderPollers(app, config: config, store: store.store, logger: logger).group
    }
    let context = PettyContext(
        store: store.store, clock: clock, startedAt: clock(), appStoreID: config.appStoreID,
        follower: follower.map { service in { @Sendable in FollowerStatus(leader: service.leader.absoluteString, state: service.status) } },
        persistence: { persistence.health }, providers: polls?.statuses,
        coordination: fleet.map { service in { @Sendable in service.info() } })

    // The whole chain, outermost first. The proxy check comes first so the log and everything after it see the
    // real client; CORS wraps the error renderer so 400/404/405/413 answers carry CORS headers too; conditional
    // requests and static files sit inside, where errors are rendered.
    app.middleware = [
        TrustedProxyMiddleware(ranges: config.trustedProxies),
        app.requestLog,
        CORSMiddleware(),
        app.errors,
        ConditionalRequestMiddleware(),
        // Inside the conditional check, so If-None-Match meets the ETag of the encoding actually served.
        CompressionMiddleware(),
        FileMiddleware(publicDirectory: config.publicDirectory),
    ]
    try routes(app, context: context, version: Entrypoint.version, detail: InternalAccess(allowed: config.followers))
    try app.register(collection: ReplicationController(context: context, allowed: config.followers))
    try registerMetrics(app, context: context, access: InternalAccess(allowed: config.followers), polls: polls?.stats)
    return (app, store.store)
}

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
        let started = Date()
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
        let started = Date()
        let bundle = try SampleData.load()
        var dataset = dataset
        dataset.history = History.replaying(bundle.history, into: dataset.history, source: .sample)
        // Perth's metro U91 before and between the captured WA days: FuelWatch's own published Metro averages.
        dataset.history = dataset.history.fillingMetro(.perth, .U91, with: try SampleData.perthMetroReport())
        // Each station's price history starts from the recorded days (VIC's 50-day panel, WA's daily captures).
        // Replayed with scratch ids, so the current payloads below assign ids exactly as without it; re-keyed after.
        let seeded = StationHistory.replaying(bundle.history, registry: StationRegistry(), source: .sample)
        // A recorded history that follows a panel of stations (VIC: 120 of 1,754) must not end on a point over the
        // whole state: the cycle position would then compare different populations. Such a current payload
        // is served, but adds no trend point.
        let panels = Dictionary(bundle.history.map { ($0.provider, $0.stations.count) }, uniquingKeysWith: max)
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
            if let panel = panels[update.provider], panel < update.stations.count { dataset.history = history }
            if !report.isApplied { logger.warning("sample \(update.provider.rawValue) not applied: \(report.outcome)") }
        }
        var stationHistory = seeded.history.rekeyed(from: seeded.registry, to: dataset.registry)
        for status in dataset.snapshot.statuses { stationHistory = stationHistory.recording(dataset.snapshot, provider: status.provider) }
        dataset.stationHistory = stationHistory
        let states = Set(dataset.snapshot.entries.map(\.station.state)).sorted().map(\.rawValue).joined(separator: ",")
        logger.notice("no persisted data: seeded SAMPLE data (\(dataset.snapshot.stationCount) stations, \(dataset.snapshot.priceCount) prices, states \(states), \(bundle.history.count) historical payloads) in \(Self.millis(since: started)) ms")
        return dataset
    }

    static func millis(since start: Date) -> Int { Int(Date().timeIntervalSince(start) * 1000) }
}

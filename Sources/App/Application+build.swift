import API
import Foundation
import Fuel
import HTTP
import Providers

/// The one place an application is assembled; `Run` and the tests both call it. It hands back the store the app
/// serves from too (tests drive pollers against it step by step).
/// `clock` is injectable so tests can pin "now".
/// `dataset`, when given, replaces loading the data directory (tests start from a known store).
/// `alertsBackend`, when given, replaces the database behind the alert routes (tests without PostgreSQL).
package func buildApplication(
    _ config: AppConfiguration, logger: Logger? = nil, clock: @escaping @Sendable () -> Date = { Date() },
    dataset: Dataset? = nil, alertsBackend: (any AlertsBackend)? = nil
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
        let service = FleetService(settings: settings, store: store.store, providers: config.providers, limits: config.followLimits, logger: logger,
            secret: config.fleet.secret, followers: config.followers, dataDirectory: store.directory.path, clock: clock)
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
    var context = PettyContext(
        store: store.store, clock: clock, startedAt: clock(), appStoreID: config.appStoreID,
        follower: follower.map { service in { @Sendable in FollowerStatus(leader: service.leader.absoluteString, state: service.status) } },
        persistence: { persistence.health }, providers: polls?.statuses,
        coordination: fleet.map { service in { @Sendable in service.info() } })
    context.publicURL = config.publicBaseURL
    // Derived values a request reads are built off the event loops: on publication, and ahead of clock boundaries.
    store.store.preparing(with: context.prepareAdvice)
    app.register(service: AdviceBoardWarmer(context: context))
    context.android = config.android
    context.apple = config.apple
    // The member that polls decides alerts: a fleet's leader (fenced by its token), or a single instance.
    let alertLeadership: AlertLeadership = fleet.map { AlertLeaders.fleet($0.coordinator) } ?? (follower != nil ? AlertLeaders.never : AlertLeaders.single)
    _ = try AlertsWiring.install(config, app: app, context: &context, store: store.store, leadership: alertLeadership, logger: logger, clock: clock)
    if let alertsBackend { context.alertsBackend = alertsBackend }

    // The whole chain, outermost first. The proxy check comes first so the log and everything after it see the
    // real client; CORS wraps the error renderer so 400/404/405/413 answers carry CORS headers too; conditional
    // requests and static files sit inside, where errors are rendered.
    app.middleware = [
        TrustedProxyMiddleware(ranges: config.trustedProxies),
        app.requestLog,
        CORSMiddleware(allowedMethods: [.GET, .HEAD, .POST, .PUT, .DELETE, .OPTIONS],
                       allowedHeaders: CORSMiddleware.defaultAllowedHeaders + [IdempotencyKey.header],
                       exposedHeaders: CORSMiddleware.defaultExposedHeaders + ["Location", "Idempotent-Replayed"]),
        app.errors,
        ConditionalRequestMiddleware(),
        // Inside the conditional check, so If-None-Match meets the ETag of the encoding actually served.
        CompressionMiddleware(),
        FileMiddleware(publicDirectory: config.publicDirectory),
    ]
    let internalAccess = InternalAccess(allowed: config.followers)
    try routes(app, context: context, version: Entrypoint.version, detail: internalAccess)
    try app.register(collection: ReplicationController(context: context, access: internalAccess, payload: ReplicationPayload.self))
    try registerMetrics(app, context: context, access: internalAccess, polls: polls?.stats)
    return (app, store.store)
}

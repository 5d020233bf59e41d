import API
import Foundation
import HTTP
import Synchronization

/// Price alerts in the application: with a database, the runtime (a service), the routes' backend, the evaluator
/// and the sender, and the health closure; without one, nothing (the routes answer 503 and `/health` says alerts
/// are off).
enum AlertsWiring {
    static func install(
        _ config: AppConfiguration, app: Application, context: inout PettyContext, store: PettyStore,
        leadership: @escaping AlertLeadership, logger: Logger, clock: @escaping @Sendable () -> Date
    ) throws -> AlertsRuntime? {
        guard let database = config.database else { return nil }
        let runtime = AlertsRuntime(configuration: database, logger: logger.labelled("alerts"))
        app.register(service: runtime)
        // The device routes run on the server's off-loop workers: one per pooled connection, each waiting on at most one.
        app.server.offLoopThreads = runtime.client.maxConnections
        context.alertsBackend = StoreAlertsBackend(
            runtime: runtime, logger: logger.labelled("alerts"), gate: BlockingBridge.Gate(limit: runtime.client.maxConnections))
        let reported = SharedAlertsHealth()
        // Nothing is decided or sent before the schema is migrated.
        let gated: AlertLeadership = { runtime.isReady ? leadership() : nil }
        try AlertServices(
            client: runtime.client, store: store, config: config, leadership: gated,
            health: { change in reported.value.withLock { change(&$0) } }, logger: logger, clock: clock
        ).register(in: app)
        context.alerts = {
            var health = reported.value.withLock { $0 }
            let services = health.status
            runtime.fill(&health)
            if services == .degraded, health.status == .ok { health.status = .degraded }
            return health
        }
        logger.notice("alerts: on, database \(database)")
        return runtime
    }
}

/// What the evaluator and the sender report (role, progress, backlog, relay, counters); the runtime adds the
/// database's side when `/health` asks.
final class SharedAlertsHealth: Sendable {
    let value = Mutex(AlertsHealth())
}

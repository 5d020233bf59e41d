import API
import HTTP

/// Price alerts in the application: with a database, the runtime (a service), the routes' backend and the health
/// closure; without one, nothing (the routes answer 503 and `/health` says alerts are off).
enum AlertsWiring {
    static func install(_ config: AppConfiguration, app: Application, context: inout PettyContext, logger: Logger) -> AlertsRuntime? {
        guard let database = config.database else { return nil }
        let runtime = AlertsRuntime(configuration: database, logger: logger.labelled("alerts"))
        app.register(service: runtime)
        context.alertsBackend = StoreAlertsBackend(runtime: runtime, logger: logger.labelled("alerts"))
        context.alerts = {
            var health = AlertsHealth()
            runtime.fill(&health)
            return health
        }
        logger.notice("alerts: on, database \(database)")
        return runtime
    }
}

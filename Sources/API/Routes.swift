import Fuel
import HTTP

/// Every endpoint of the API, registered on `app`. `version` is what `/health` reports; `detail` who sees its
/// full detail (the `/metrics` audience).
package func routes(_ app: Application, context: PettyContext, version: String, detail: InternalAccess) throws {
    try app.register(collection: StationsController(context: context))
    try app.register(collection: AlongController(context: context))
    try app.register(collection: PricesController(context: context))
    try app.register(collection: ChangesController(context: context))
    try app.register(collection: AveragesController(context: context))
    try app.register(collection: TrendsController(context: context))
    try app.register(collection: ReferenceController(context: context))
    try app.register(collection: StationHistoryController(context: context))
    try app.register(collection: TomorrowController(context: context))
    try app.register(collection: AdviceController(context: context))
    try app.register(collection: SummaryController(context: context))
    try app.register(collection: HealthController(context: context, version: version, detail: detail))
    try app.register(collection: SharePageController(context: context))
    try app.register(collection: DevicesController(context: context, backend: context.alertsBackend))
    if let android = context.android { try app.register(collection: AssetLinksController(app: android)) }
    if let apple = context.apple { try app.register(collection: AppleAppSiteAssociationController(app: apple)) }
}

/// `GET /metrics` for the clients `access` allows; `polls` is nil in follower mode (no pollers run).
package func registerMetrics(_ app: Application, context: PettyContext, access: InternalAccess, polls: (any PollCountSource)?) throws {
    try app.register(collection: MetricsController(
        access: access, fuel: FuelMetrics(context: context, polls: polls),
        http: { [weak app] in app?.metrics.snapshot() }))
}

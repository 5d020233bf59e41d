import HTTP

/// The one place an application is assembled; `Run` and the tests both call it.
public func buildApplication(_ config: AppConfiguration, logger: Logger? = nil) throws -> Application {
    let logger = logger ?? Logger(label: "petty", level: config.logLevel)
    let app = Application(environment: config.environment, logger: logger)
    app.server.hostname = config.hostname
    app.server.port = config.port
    if let threads = config.threads { app.server.threads = threads }
    app.middleware.append(ConditionalRequestMiddleware())
    app.middleware.append(CORSMiddleware())
    app.middleware.append(FileMiddleware(publicDirectory: config.publicDirectory))
    try configureRoutes(app, config: config)
    return app
}

func configureRoutes(_ app: Application, config: AppConfiguration) throws {
    app.get("health") { _ in "ok" }
    addBenchRoute(app)
}

// TEMPORARY benchmark stand-in until the fuel API lands.
let benchStation: [UInt8] = Array(#"{"id":1,"name":"United Umina Beach","brand":"United","address":"307-313 Ocean Beach Road, UMINA BEACH NSW 2257","suburb":"UMINA BEACH","state":"NSW","postcode":"2257","location":{"latitude":-33.511231,"longitude":151.318092},"prices":[{"fuel":"E10","price":225.9,"updated_at":"2026-01-14T22:51:45Z"},{"fuel":"U91","price":227.9,"updated_at":"2026-01-14T22:51:45Z"},{"fuel":"P95","price":239.9,"updated_at":"2026-01-14T22:51:45Z"},{"fuel":"P98","price":247.9,"updated_at":"2026-01-14T22:51:45Z"}],"meta":{"as_of":"2026-01-15T02:30:53Z","source":"sample"}}"#.utf8)
func addBenchRoute(_ app: Application) {
    app.get("v1", "stations", ":id") { _ in Response(status: .ok, headers: ["Content-Type": "application/json; charset=utf-8", "ETag": "\"abc\"", "Cache-Control": "public, max-age=60"], body: benchStation) }
}

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
}

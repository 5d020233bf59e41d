import Foundation
@testable import HTTP

/// An application with a few routes that the live and in-memory tests share. `slowStarted` is signalled when a
/// `/slow` handler begins, so a test can act while that request is certainly in flight rather than after a guess.
func makeTestApp(slowStarted: DispatchSemaphore? = nil, configure: (Application) -> Void = { _ in }) -> Application {
    let app = Application(environment: .testing, logger: Logger(label: "test", level: .critical, sink: .inMemory()))
    app.server.threads = 2
    app.get("hello") { _ in "hello" }
    app.get("items", ":id") { req -> String in
        let id = try req.parameters.require("id", as: Int.self)
        return "item \(id)"
    }
    app.post("echo") { req in Response(contentType: "application/octet-stream", body: req.body) }
    app.get("big") { _ in Response(contentType: "application/octet-stream", body: [UInt8](repeating: 0x61, count: 4 * 1024 * 1024)) }
    app.get("slow") { _ -> String in
        slowStarted?.signal()
        usleep(300_000)
        return "slow done"
    }
    configure(app)
    return app
}

/// Starts `app` on a free loopback port for the body, then shuts it down.
func withLiveServer<T>(_ app: Application, _ body: (Int) throws -> T) throws -> T {
    let port = try app.startLive()
    defer { app.shutdown() }
    return try body(port)
}

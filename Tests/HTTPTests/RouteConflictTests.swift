import Testing
@testable import HTTP

/// Two routes naming the same position differently would let one name win silently; the router refuses them.
@Suite struct RouteConflictTests {
    @Test func differentNamesAtOnePositionAreRefusedAtStart() throws {
        let app = Application(environment: .testing, logger: Logger(label: "test", level: .critical, sink: .inMemory()))
        app.get("a", ":id") { _ in "a" }
        app.get("a", ":slug", "x") { _ in "x" }
        #expect(Router(routes: app.routes).conflicts == ["GET /a/:slug/x names :id as :slug"])
        #expect(throws: RouteConflictError.self) { try app.start() }
        app.shutdown()
    }

    @Test func theSameNameAtOnePositionIsFine() {
        let app = Application(environment: .testing, logger: Logger(label: "test", level: .critical, sink: .inMemory()))
        app.get("a", ":id") { _ in "a" }
        app.get("a", ":id", "x") { _ in "x" }
        app.post("a", ":id") { _ in "p" }
        #expect(Router(routes: app.routes).conflicts.isEmpty)
    }
}

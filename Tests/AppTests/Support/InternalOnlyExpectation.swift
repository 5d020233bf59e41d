import HTTP
import Testing

extension AppTestSupport {
    /// `path` answers a loopback peer and is a 404 to an internet client, whether it asks directly or through a
    /// trusted nginx (judged by the real client, not the relaying proxy). Returns the relayed answer.
    @discardableResult
    static func expectInternalOnly(_ app: Application, _ path: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> TestResponse {
        #expect(try app.test(.GET, path, peer: "127.0.0.1").status == .ok, sourceLocation: sourceLocation)
        #expect(try app.test(.GET, path, peer: "203.0.113.9").status == .notFound, sourceLocation: sourceLocation)
        let relayed = try app.test(.GET, path, headers: ["X-Forwarded-For": "203.0.113.9"], peer: "127.0.0.1")
        #expect(relayed.status == .notFound, sourceLocation: sourceLocation)
        return relayed
    }
}

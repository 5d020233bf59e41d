import Testing
@testable import HTTP

@Suite(.serialized) struct StartupLogTests {
    @Test func portZeroLogsTheBoundPortNotZero() throws {
        let logs = LogSink.inMemory()
        let app = Application(environment: .testing, logger: Logger(label: "test", level: .notice, sink: logs))
        app.server.threads = 1
        app.get("hello") { _ in "hello" }
        let port = try app.startLive()
        defer { app.shutdown() }
        #expect(port > 0)
        let listening = logs.lines.filter { $0.contains("listening on") }
        #expect(listening.count == 1)
        #expect(listening.first?.contains("http://127.0.0.1:\(port)") == true)
        #expect(listening.first?.hasSuffix(":0\n") == false)
    }
}

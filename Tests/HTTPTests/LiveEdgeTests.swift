import Foundation
import Testing
@testable import HTTP

/// The connection's own refusals on a real socket: the body deadline, and every refusal logged and counted.
@Suite("Live edge: body deadline, refusals logged and counted")
struct LiveEdgeTests {
    @Test("A body trickled in steadily still gets 408 at its deadline (1.5 s here)")
    func bodyDeadline() throws {
        let app = makeTestApp { app in
            app.server.bodyTimeoutSeconds = 1.5
            app.server.bodyIdleTimeoutSeconds = 60
        }
        try withLiveServer(app) { port in
            let client = try RawClient(port: port)
            try client.send("POST /echo HTTP/1.1\r\nHost: a\r\nContent-Length: 100000\r\n\r\n")
            let started = Date()
            var answer: [UInt8] = []
            // One byte every 200 ms: never idle, never done. The sweep runs once a second, so 408 comes by ~2.5 s.
            while Date().timeIntervalSince(started) < 6, answer.isEmpty {
                try? client.send("a")
                if let chunk = client.readChunk(timeoutMillis: 200), !chunk.isEmpty { answer = chunk }
            }
            let elapsed = Date().timeIntervalSince(started)
            #expect(RawResponse.parseAll(answer).first?.status == 408, "\(String(decoding: answer, as: UTF8.self))")
            #expect(elapsed >= 1.4 && elapsed < 4, "answered after \(elapsed) s")
        }
    }

    @Test("Parser refusals are logged on one escaped line each, rate-limited, and counted by status")
    func refusalsLoggedAndCounted() throws {
        let sink = LogSink.inMemory()
        let app = Application(environment: .testing, logger: Logger(label: "test", level: .info, sink: sink))
        app.server.threads = 1
        app.get("hello") { _ in "hello" }
        let hostile = [
            "GET / HTTP/1.1\r\nHost: a\r\nDummy: x\nContent-Length: 23\r\n\r\n",  // bare LF: 400
            "GET /\u{1b}[2J HTTP/1.1\r\nHost: a\r\n\r\n",  // escape in the target: 400
            "GET /" + String(repeating: "a", count: 9000) + " HTTP/1.1\r\n\r\n",  // 414
            "GET / HTTP/1.1\r\nHost: a\r\nX: " + String(repeating: "b", count: 40_000) + "\r\n\r\n",  // 431
            "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 99999999\r\n\r\n",  // 413
        ]
        try withLiveServer(app) { port in
            for (index, request) in (hostile + Array(repeating: hostile[0], count: 15)).enumerated() {
                let client = try RawClient(port: port)
                try client.send(request)
                let status = RawResponse.parseAll(client.readUntilClosed().bytes).first?.status
                #expect(status != nil && status! >= 400, "request \(index): \(status ?? 0)")
            }
        }
        let refusals = Dictionary(uniqueKeysWithValues: app.metrics.snapshot().refusals.map { ($0.status, $0.count) })
        #expect(refusals == [400: 17, 414: 1, 431: 1, 413: 1])
        var text = PrometheusText()
        app.metrics.snapshot().write(to: &text, namespace: "petty")
        #expect(text.text.contains("petty_http_refused_requests_total{status=\"400\"} 17"), "\(text.text)")

        let lines = sink.lines.filter { $0.contains("refused 127.0.0.1") }
        #expect(lines.contains { $0.contains(" 400 bare LF in header section") })
        #expect(lines.contains { $0.contains(" 414 ") } && lines.contains { $0.contains(" 431 ") } && lines.contains { $0.contains(" 413 ") })
        #expect(lines.count >= 5 && lines.count <= 20, "\(lines.count) lines")
        #expect(lines.allSatisfy { !$0.dropLast().contains("\n") && !$0.contains("\u{1b}") })
    }

    @Test("An error no middleware renders is a 500 on the same connection, logged with the method and path but not the query")
    func unrenderedErrorIsA500() throws {
        struct Boom: Error {}
        let sink = LogSink.inMemory()
        let app = Application(environment: .testing, logger: Logger(label: "test", level: .info, sink: sink))
        app.server.threads = 1
        app.middleware = []
        app.get("boom") { _ -> String in throw Boom() }
        app.get("hello") { _ in "hello" }
        try withLiveServer(app) { port in
            let client = try RawClient(port: port)
            try client.send("GET /boom?token=secret HTTP/1.1\r\nHost: a\r\n\r\nGET /hello HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n")
            let answers = RawResponse.parseAll(client.readUntilClosed().bytes)
            #expect(answers.map(\.status) == [500, 200])
        }
        let lines = sink.lines.filter { $0.contains("unhandled error") }
        #expect(lines.count == 1 && lines[0].contains("GET /boom: ") && !lines[0].contains("secret"), "\(sink.lines)")
    }

    @Test("The refusal log keeps 10 lines a second and then says how many it held back")
    func rateLimit() {
        var limit = LogRateLimit(burst: 10, windowMillis: 1000)
        let admitted = (0..<25).map { limit.admit(now: 5_000 + Int64($0)) }
        #expect(admitted.prefix(10).allSatisfy { $0 == 0 })
        #expect(admitted.dropFirst(10).allSatisfy { $0 == nil })
        #expect(limit.admit(now: 5_999) == nil)
        #expect(limit.admit(now: 6_000) == 16)
        #expect(limit.admit(now: 6_001) == 0)
    }

    @Test("The out-of-descriptors warning comes once a second with every connection shed since the last one")
    func tallyOncePerWindow() {
        var limit = LogRateLimit(burst: 1, windowMillis: 1000)
        #expect(limit.admit(now: 0, tallying: 3) == 3)
        #expect(limit.admit(now: 100, tallying: 5) == nil)
        #expect(limit.admit(now: 999, tallying: 0) == nil)
        #expect(limit.admit(now: 1_000, tallying: 2) == 7)
        #expect(limit.admit(now: 2_500, tallying: 1) == 1)
    }
}

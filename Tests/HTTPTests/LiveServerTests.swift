import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Testing
@testable import HTTP

@Suite(.serialized) struct LiveServerTests {
    /// A header timeout of 1 s beside an idle timeout of 30 s: how soon a connection closes tells which one closed it.
    static func shortHeaderTimeoutApp() -> Application {
        makeTestApp { app in
            app.server.headerTimeoutSeconds = 1
            app.server.idleTimeoutSeconds = 30
        }
    }

    @Test func aRealHTTPClientGetsAResponse() async throws {
        let app = makeTestApp()
        let port = try app.startLive()
        defer { app.shutdown() }
        let (data, response) = try await URLSession.shared.data(from: URL(string: "http://127.0.0.1:\(port)/items/42")!)
        let http = try #require(response as? HTTPURLResponse)
        #expect(http.statusCode == 200)
        #expect(String(decoding: data, as: UTF8.self) == "item 42")
        #expect(http.value(forHTTPHeaderField: "Content-Type") == "text/plain; charset=utf-8")
        #expect(http.value(forHTTPHeaderField: "Date") != nil)
    }

    @Test func keepAliveServesSeveralRequestsOnOneConnection() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            for i in 1...3 {
                try client.send("GET /items/\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                let responses = client.readResponses(1)
                #expect(responses.first?.bodyString == "item \(i)")
                #expect(responses.first?.header("Connection") == nil)
            }
        }
    }

    @Test func pipelinedRequestsAreAnsweredInOrder() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            let requests = (1...20).map { "GET /items/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined()
            try client.send(requests)
            let responses = client.readResponses(20)
            #expect(responses.map(\.bodyString) == (1...20).map { "item \($0)" })
        }
    }

    @Test func connectionCloseIsHonoured() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            let (bytes, closed) = client.readUntilClosed()
            let responses = RawResponse.parseAll(bytes)
            #expect(closed)
            #expect(responses.first?.header("Connection") == "close")
            #expect(responses.first?.bodyString == "hello")
        }
    }

    /// The last send before a close is corked (MSG_MORE) so the FIN rides with the last bytes: a body far larger than
    /// the socket buffers, sent over many partial writes, must still arrive whole before the close.
    @Test func aLargeBodyBeforeConnectionCloseArrivesWholeBeforeTheFIN() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            try client.send("GET /big HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            Thread.sleep(forTimeInterval: 0.2)
            let (bytes, closed) = client.readUntilClosed(timeout: 10)
            let responses = RawResponse.parseAll(bytes)
            #expect(closed)
            #expect(responses.count == 1)
            #expect(responses.first?.body.count == 4 * 1024 * 1024)
            #expect(responses.first?.body.allSatisfy { $0 == 0x61 } == true)
        }
    }

    @Test func http10ClosesUnlessAskedToKeepAlive() throws {
        try withLiveServer(makeTestApp()) { port in
            let plain = try RawClient(port: port)
            try plain.send("GET /hello HTTP/1.0\r\n\r\n")
            let (bytes, closed) = plain.readUntilClosed()
            #expect(closed)
            // RFC 9112 §2.5: answer with the highest 1.x version we speak.
            #expect(String(decoding: bytes, as: UTF8.self).hasPrefix("HTTP/1.1 200 OK\r\n"))

            let keepAlive = try RawClient(port: port)
            try keepAlive.send("GET /hello HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            let first = keepAlive.readResponses(1)
            #expect(first.first?.header("Connection") == "keep-alive")
            try keepAlive.send("GET /items/7 HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(keepAlive.readResponses(1).first?.bodyString == "item 7")
        }
    }

    @Test func headHasTheLengthOfGetButNoBody() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            try client.send("HEAD /hello HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            var buffer: [UInt8] = []
            while RawResponse.find(Array("hello".utf8), in: buffer, from: 0) == nil, let chunk = client.readChunk(timeoutMillis: 2000), !chunk.isEmpty {
                buffer += chunk
            }
            let text = String(decoding: buffer, as: UTF8.self)
            let parts = text.components(separatedBy: "HTTP/1.1 200 OK")
            #expect(parts.count == 3)
            #expect(parts[1].contains("Content-Length: 5\r\n"))
            #expect(parts[1].hasSuffix("\r\n\r\n"))
            #expect(parts[2].hasSuffix("\r\n\r\nhello"))
        }
    }

    @Test func unknownPathAndWrongMethodGetJSONErrors() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            try client.send("GET /nope HTTP/1.1\r\nHost: x\r\n\r\nDELETE /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            let responses = client.readResponses(2)
            #expect(responses.map(\.status) == [404, 405])
            #expect(responses.first?.bodyString == #"{"error":true,"reason":"Not Found"}"#)
            #expect(responses.last?.header("Allow") == "GET, HEAD, OPTIONS")
        }
    }

    @Test func aMalformedRequestGets400AndTheConnectionCloses() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n")
            let (bytes, closed) = client.readUntilClosed()
            let response = RawResponse.parseAll(bytes).first
            #expect(closed)
            #expect(response?.status == 400)
            #expect(response?.header("Connection") == "close")
            #expect(response?.bodyString.hasPrefix(#"{"error":true,"reason":"#) == true)
        }
    }

    @Test func aSlowHeaderIsTimedOutWith408() throws {
        try withLiveServer(Self.shortHeaderTimeoutApp()) { port in
            let client = try RawClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\nX-Slow: ")
            let started = Date()
            let (bytes, closed) = client.readUntilClosed(timeout: 6)
            #expect(closed)
            #expect(RawResponse.parseAll(bytes).first?.status == 408)
            #expect(Date().timeIntervalSince(started) < 4)
        }
    }

    @Test func aConnectionThatNeverSendsAByteIsClosedAfterTheHeaderTimeoutNotTheIdleTimeout() throws {
        try withLiveServer(Self.shortHeaderTimeoutApp()) { port in
            let client = try RawClient(port: port)
            let started = Date()
            let (bytes, closed) = client.readUntilClosed(timeout: 8)
            #expect(closed)
            #expect(bytes.isEmpty)
            #expect(Date().timeIntervalSince(started) < 4)
        }
    }

    @Test func aKeepAliveConnectionBetweenRequestsWaitsForTheIdleTimeoutNotTheHeaderTimeout() throws {
        try withLiveServer(Self.shortHeaderTimeoutApp()) { port in
            let client = try RawClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponses(1).count == 1)
            #expect(!client.readUntilClosed(timeout: 3).closed)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponses(1).first?.bodyString == "hello")
        }
    }

    @Test func framingErrorsGet400AndTheConnectionCloses() throws {
        let requests = [
            "GET /hello HTTP/1.1\r\nHost: a b\r\n\r\n",
            "GET /hello HTTP/1.0\r\nHost: {\r\n\r\n",
            "POST /echo HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n5;\r\nhello\r\n0\r\n\r\n",
            "GET /hello HTTP/1.1\rHost: x\r\n\r\n",
            "GET /hello HTTP/1.1\r\nHost: x\rX-A: b\r\n\r\n",
        ]
        try withLiveServer(makeTestApp()) { port in
            for request in requests {
                let client = try RawClient(port: port)
                try client.send(request)
                let (bytes, closed) = client.readUntilClosed()
                let response = RawResponse.parseAll(bytes).first
                #expect(closed, "\(request.debugDescription)")
                #expect(response?.status == 400, "\(request.debugDescription)")
                #expect(response?.header("Connection") == "close")
            }
        }
    }

    @Test func anIdleKeepAliveConnectionIsClosed() throws {
        let app = makeTestApp()
        app.server.idleTimeoutSeconds = 1
        try withLiveServer(app) { port in
            let client = try RawClient(port: port)
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponses(1).count == 1)
            let (_, closed) = client.readUntilClosed(timeout: 5)
            #expect(closed)
        }
    }

    @Test func expectContinueGetsAnInterimResponseBeforeTheBody() throws {
        try withLiveServer(makeTestApp()) { port in
            let client = try RawClient(port: port)
            try client.send("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Length: 4\r\nExpect: 100-continue\r\n\r\n")
            let interim = client.readChunk(timeoutMillis: 2000).map { String(decoding: $0, as: UTF8.self) }
            #expect(interim == "HTTP/1.1 100 Continue\r\n\r\n")
            try client.send("ping")
            #expect(client.readResponses(1).first?.bodyString == "ping")
        }
    }

    @Test func aClientThatReadsSlowlyDoesNotBlockOthers() throws {
        try withLiveServer(makeTestApp()) { port in
            let slow = try RawClient(port: port)
            try slow.send("GET /big HTTP/1.1\r\nHost: x\r\n\r\n")
            // The 4 MiB response cannot fit the socket buffers; the server must park it and go on.
            Thread.sleep(forTimeInterval: 0.2)
            let fast = try RawClient(port: port)
            for i in 1...5 {
                try fast.send("GET /items/\(i) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(fast.readResponses(1, timeout: 2).first?.bodyString == "item \(i)")
            }
            let responses = slow.readResponses(1, timeout: 10)
            #expect(responses.first?.body.count == 4 * 1024 * 1024)
        }
    }

    @Test func aBusyPortIsAClearErrorNotACrash() throws {
        let first = makeTestApp()
        let port = try first.startLive()
        defer { first.shutdown() }
        let second = makeTestApp()
        second.server.port = port
        #expect {
            try second.start()
        } throws: { error in
            guard case ListenerError.addressInUse = error else { return false }
            return "\(error)".contains("already in use")
        }
    }

    @Test func connectionsOverTheCapGet503() throws {
        let app = makeTestApp()
        app.server.maxConnections = 2
        try withLiveServer(app) { port in
            let a = try RawClient(port: port)
            let b = try RawClient(port: port)
            try a.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            try b.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(a.readResponses(1).count == 1)
            #expect(b.readResponses(1).count == 1)
            let c = try RawClient(port: port)
            let (bytes, closed) = c.readUntilClosed()
            #expect(closed)
            #expect(RawResponse.parseAll(bytes).first?.status == 503)
        }
    }

    @Test func shutdownFinishesTheRequestInFlightThenStops() throws {
        let handlerStarted = DispatchSemaphore(value: 0)
        let app = makeTestApp(slowStarted: handlerStarted)
        let port = try app.startLive()
        let busy = try RawClient(port: port)
        let idle = try RawClient(port: port)
        try idle.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(idle.readResponses(1).count == 1)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(handlerStarted.wait(timeout: .now() + 10) == .success, "the slow handler never began")
        let started = Date()
        app.shutdown()
        #expect(Date().timeIntervalSince(started) < 3)
        let (bytes, closed) = busy.readUntilClosed()
        #expect(RawResponse.parseAll(bytes).first?.bodyString == "slow done")
        #expect(closed)
        #expect(idle.readUntilClosed(timeout: 1).closed)
        #expect(throws: (any Error).self) { try RawClient(port: port) }
    }

    @Test func listensOnIPv6AndLocalhost() throws {
        for host in ["::", "localhost"] {
            let app = makeTestApp()
            app.server.hostname = host
            app.server.port = 0
            try app.start()
            defer { app.shutdown() }
            let client = try RawClient(port: app.boundPort!, host: host == "::" ? "127.0.0.1" : "localhost")
            try client.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(client.readResponses(1).first?.bodyString == "hello")
        }
    }
}

import Dispatch
import Testing
@testable import HTTP

/// A route that runs off the loop (`runsOffLoop`): its handler may block a worker thread, never the event loop, and
/// its answer comes back on its own connection, before the requests pipelined behind it.
@Suite struct OffLoopRouteTests {
    @Test func aBlockedOffLoopHandlerLeavesItsLoopServingOtherConnections() throws {
        let started = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let app = makeTestApp { app in
            app.server.threads = 1
            app.on(.GET, "blocking", runsOffLoop: true) { _ -> String in
                started.signal()
                release.wait()
                return "unblocked"
            }
        }
        try withLiveServer(app) { port in
            let blocked = try RawClient(port: port)
            try blocked.send("GET /blocking HTTP/1.1\r\nHost: x\r\n\r\nGET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(started.wait(timeout: .now() + 10) == .success)
            // The server's one loop still answers another connection while the handler waits.
            let other = try RawClient(port: port)
            try other.send("GET /hello HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(other.readResponses(1).map(\.bodyString) == ["hello"])
            release.signal()
            #expect(blocked.readResponses(2).map(\.bodyString) == ["unblocked", "hello"])
        }
    }

    @Test func anOffLoopHandlersErrorIsRenderedAsAnyOtherRoutesIs() throws {
        let app = makeTestApp { app in
            app.on(.GET, "refusing", runsOffLoop: true) { _ -> String in throw Abort(HTTPStatus(code: 409), reason: "taken") }
        }
        try withLiveServer(app) { port in
            let client = try RawClient(port: port)
            try client.send("GET /refusing HTTP/1.1\r\nHost: x\r\n\r\n")
            let response = client.readResponses(1).first
            #expect(response?.status == 409)
            #expect(response?.bodyString.contains("taken") == true)
        }
    }
}

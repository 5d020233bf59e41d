import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import HTTP

@Suite struct LiveSignalTests {
    @Test func sighupDrainsLikeSigtermAndRunReturns() throws {
        let handlerStarted = DispatchSemaphore(value: 0)
        let app = makeTestApp(slowStarted: handlerStarted)
        app.server.port = 0
        let returned = DispatchSemaphore(value: 0)
        Thread {
            try? app.run()
            returned.signal()
        }.start()
        // run() installs its signal handling before it binds, so once there is a port a SIGHUP is safe to send.
        let deadline = Date().addingTimeInterval(10)
        while app.boundPort == nil && Date() < deadline { usleep(10_000) }
        let port = try #require(app.boundPort)
        let busy = try RawClient(port: port)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(handlerStarted.wait(timeout: .now() + 10) == .success, "the slow handler never began")

        kill(getpid(), SIGHUP)
        #expect(returned.wait(timeout: .now() + 5) == .success)
        let (bytes, closed) = busy.readUntilClosed()
        #expect(RawResponse.parseAll(bytes).first?.bodyString == "slow done")
        #expect(closed)
        #expect(throws: (any Error).self) { try RawClient(port: port) }
        // run() leaves these ignored; give the test process its defaults back.
        for signalNumber in Application.stopSignals { signal(signalNumber, SIG_DFL) }
    }
}

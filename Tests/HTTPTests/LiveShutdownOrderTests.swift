import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import Testing
@testable import HTTP

/// What happened during a shutdown, in order.
final class EventLog: Sendable {
    private let entries = Mutex<[String]>([])
    func append(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}

/// Records when it is stopped, after taking `stopping` seconds to stop.
final class RecordingService: Service, Sendable {
    let name: String
    let events: EventLog
    let stopping: TimeInterval

    init(_ name: String, events: EventLog, stopping: TimeInterval = 0) {
        self.name = name
        self.events = events
        self.stopping = stopping
    }

    func run() async throws {
        await waitForCancellation()
        usleep(UInt32(stopping * 1_000_000))
        events.append("stop \(name)")
    }
}

@Suite(.serialized) struct LiveShutdownOrderTests {
    @Test func aNewConnectionIsRefusedAtOnceWhileTheSlowRequestInFlightFinishes() throws {
        let handlerStarted = DispatchSemaphore(value: 0)
        let app = makeTestApp(slowStarted: handlerStarted)
        // Like pollers that take a while to stop: the listener must not wait for them.
        app.register(service: RecordingService("slow to stop", events: EventLog(), stopping: 0.3))
        let port = try app.startLive()
        let busy = try RawClient(port: port)
        try busy.send("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(handlerStarted.wait(timeout: .now() + 10) == .success, "the slow handler never began")

        let stopping = DispatchSemaphore(value: 0)
        let stopped = DispatchSemaphore(value: 0)
        Thread {
            stopping.signal()
            app.shutdown()
            stopped.signal()
        }.start()
        stopping.wait()
        Thread.sleep(forTimeInterval: 0.02)
        let started = Date()
        let probe = ConnectionProbe.probe(port: port, waitMillis: 100)
        #expect(probe.isRefused, "a connection opened during the drain got \(probe)")
        #expect(Date().timeIntervalSince(started) < 0.1)

        let (bytes, closed) = busy.readUntilClosed()
        let answer = RawResponse.parseAll(bytes).first
        #expect(answer?.status == 200)
        #expect(answer?.bodyString == "slow done")
        #expect(closed)
        #expect(stopped.wait(timeout: .now() + 5) == .success)
    }

    @Test func servicesStopAfterTheDrainInReverseRegistrationOrder() throws {
        let events = EventLog()
        let handlerStarted = DispatchSemaphore(value: 0)
        let app = makeTestApp { app in
            app.get("slow-recorded") { _ -> String in
                handlerStarted.signal()
                usleep(300_000)
                events.append("request done")
                return "done"
            }
        }
        app.register(service: RecordingService("first", events: events))
        app.register(service: RecordingService("second", events: events))
        let port = try app.startLive()
        let busy = try RawClient(port: port)
        try busy.send("GET /slow-recorded HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(handlerStarted.wait(timeout: .now() + 10) == .success, "the slow handler never began")
        app.shutdown()
        #expect(events.all == ["request done", "stop second", "stop first"])
    }
}

import Foundation
import Synchronization
import Testing
@testable import HTTP

/// A service whose `run()` throws shuts the server down so its supervisor restarts it, unless it says the server may
/// serve on without it; a service that returns (nothing to do) or is stopped by the group has not failed.
@Suite struct ServiceEndPolicyTests {
    struct Broken: Error, CustomStringConvertible { var description: String { "disk on fire" } }

    struct Ending: Service {
        let name: String
        let throwing: Bool
        var whenItEnds: ServiceEndPolicy
        /// Signalled as `run()` ends.
        let ended = DispatchSemaphore(value: 0)
        func run() async throws {
            defer { ended.signal() }
            if throwing { throw Broken() }
        }
    }

    struct Waiting: Service {
        let name = "waiting"
        func run() async throws { await waitForCancellation() }
    }

    final class Ends: Sendable {
        let seen = Mutex<[ServiceEndedError]>([])
        let signal = DispatchSemaphore(value: 0)
        func record(_ ended: ServiceEndedError) {
            seen.withLock { $0.append(ended) }
            signal.signal()
        }
    }

    /// Runs `services` until each `Ending` one has ended and its end has been handled, then stops the group.
    func run(_ services: [any Service], expectingEnds: Int) -> [ServiceEndedError] {
        let ends = Ends()
        let group = ServiceGroup(services: services, logger: Logger(label: "test", level: .critical, sink: .inMemory())) { ends.record($0) }
        try? group.start()
        for case let ending as Ending in services { _ = ending.ended.wait(timeout: .now() + 30) }
        for _ in 0..<expectingEnds { _ = ends.signal.wait(timeout: .now() + 30) }
        // Time for an end that should not be reported to be reported anyway.
        Thread.sleep(forTimeInterval: 0.1)
        group.stop()
        return ends.seen.withLock { $0 }
    }

    @Test func aThrowShutsTheServerDownByDefault() {
        let ended = run([Waiting(), Ending(name: "poller", throwing: true, whenItEnds: .shutDownServer)], expectingEnds: 1)
        #expect(ended.map(\.service) == ["poller"])
        #expect(ended.first?.reason == "disk on fire")
    }

    /// A poller service with no providers returns at once: the server serves on (stored or sample data).
    @Test func aServiceWithNothingToDoMayReturn() {
        #expect(run([Ending(name: "pollers", throwing: false, whenItEnds: .shutDownServer)], expectingEnds: 0).isEmpty)
    }

    @Test func aServiceThatMayEndLeavesTheServerServing() {
        #expect(run([Ending(name: "warmer", throwing: true, whenItEnds: .keepServing)], expectingEnds: 0).isEmpty)
    }

    @Test func aServiceStoppedByTheGroupHasNotEnded() {
        #expect(run([Waiting(), Waiting()], expectingEnds: 0).isEmpty)
    }

    /// The whole path: `run()` returns by throwing the ended service, after the usual graceful shutdown.
    @Test func runThrowsTheEndedServiceAfterShuttingDown() throws {
        let app = Application(environment: .testing, logger: Logger(label: "test", level: .critical, sink: .inMemory()))
        app.server.hostname = "127.0.0.1"
        app.server.port = 0
        app.register(service: Ending(name: "fleet", throwing: true, whenItEnds: .shutDownServer))
        let outcome = Mutex<String?>(nil)
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            // Without the signal handlers `run()` installs: signal tests run beside this one in the same process.
            do { try app.run(until: DispatchSemaphore(value: 0)); outcome.withLock { $0 = "returned" } } catch { outcome.withLock { $0 = "\(error)" } }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 20) == .success)
        #expect(outcome.withLock { $0 } == "service fleet ended: disk on fire")
        #expect(app.boundPort == nil)
    }
}

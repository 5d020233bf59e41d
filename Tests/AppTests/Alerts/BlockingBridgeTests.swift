import Foundation
import Synchronization
import Testing
@testable import App

/// A slow database holds at most the gate's callers: the next caller is refused at once instead of waiting too.
/// Callers run on threads of their own, as the server's off-loop workers do: a bridge waits, so it must never run on the
/// cooperative pool whose threads its work needs.
@Suite struct BlockingBridgeTests {
    @Test func aCallerPastTheGateIsRefusedAtOnceWhileTheFirstStillWaits() async throws {
        let gate = BlockingBridge.Gate(limit: 1)
        let started = Flag()
        let release = Flag()
        async let first: Result<Int, any Error> = onThread {
            Result { try BlockingBridge.run(deadline: 10, gate: gate) { () async -> Int in
                started.set()
                while !release.isSet { try? await Task.sleep(nanoseconds: 5_000_000) }
                return 1
            } }
        }
        while !started.isSet { try await Task.sleep(nanoseconds: 5_000_000) }
        let (refused, seconds) = await onThread { () -> (Bool, Double) in
            let start = Date()
            do { _ = try BlockingBridge.run(deadline: 10, gate: gate) { 2 }; return (false, 0) } catch {
                return (error is BlockingBridge.Busy, Date().timeIntervalSince(start))
            }
        }
        #expect(refused)
        #expect(seconds < 1, "refused without waiting for the database")
        release.set()
        #expect(try await first.get() == 1)
        // The gate is free again: the next caller is served.
        #expect(await onThread { try? BlockingBridge.run(deadline: 10, gate: gate) { 3 } } == 3)
        #expect(gate.current == 0)
    }

    @Test func aGateOfNoneStillLetsOneWaitAndATimeoutLeavesTheGate() async {
        let gate = BlockingBridge.Gate(limit: 0)
        #expect(gate.limit == 1)
        let timedOut = await onThread { () -> Bool in
            do {
                _ = try BlockingBridge.run(deadline: 0.05, gate: gate) { () async throws -> Int in
                    try await Task.sleep(nanoseconds: 2_000_000_000)
                    return 0
                }
                return false
            } catch { return error is BlockingBridge.TimedOut }
        }
        #expect(timedOut)
        #expect(gate.current == 0)
    }

    private func onThread<T: Sendable>(_ body: @escaping @Sendable () -> T) async -> T {
        await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: body()) }.start()
        }
    }
}

/// A flag polled without blocking a thread.
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

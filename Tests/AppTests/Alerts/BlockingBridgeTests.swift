import Foundation
import Synchronization
import Testing
@testable import App

/// A slow database holds at most the gate's loops: the next caller is refused at once instead of waiting too.
@Suite struct BlockingBridgeTests {
    @Test func aCallerPastTheGateIsRefusedAtOnceWhileTheFirstStillWaits() throws {
        let gate = BlockingBridge.Gate(loops: 2)
        #expect(gate.limit == 1)
        let started = DispatchSemaphore(value: 0)
        let release = Flag()
        let first = Mutex<Result<Int, any Error>?>(nil)
        let waiter = Thread {
            let result = Result { try BlockingBridge.run(deadline: 5, gate: gate) { () async -> Int in
                started.signal()
                while !release.isSet { try? await Task.sleep(nanoseconds: 5_000_000) }
                return 1
            } }
            first.withLock { $0 = result }
        }
        waiter.start()
        #expect(started.wait(timeout: .now() + 5) == .success)
        let clock = ContinuousClock()
        let refusedIn = clock.measure {
            #expect(throws: BlockingBridge.Busy.self) { try BlockingBridge.run(deadline: 5, gate: gate) { 2 } }
        }
        #expect(refusedIn < .seconds(1), "refused without waiting for the database")
        release.set()
        while first.withLock({ $0 == nil }) { Thread.sleep(forTimeInterval: 0.005) }
        #expect(try first.withLock { $0! }.get() == 1)
        // The gate is free again: the next caller is served.
        #expect(try BlockingBridge.run(deadline: 5, gate: gate) { 3 } == 3)
        #expect(gate.current == 0)
    }

    @Test func oneLoopStillGetsOneWaiterAndATimeoutLeavesTheGate() {
        let gate = BlockingBridge.Gate(loops: 1)
        #expect(gate.limit == 1)
        #expect(throws: BlockingBridge.TimedOut.self) {
            try BlockingBridge.run(deadline: 0.05, gate: gate) { () async throws -> Int in
                try await Task.sleep(nanoseconds: 2_000_000_000)
                return 0
            }
        }
        #expect(gate.current == 0)
    }
}

/// A flag the slow "database" polls (without blocking the cooperative pool's threads).
private final class Flag: Sendable {
    private let value = Mutex(false)
    var isSet: Bool { value.withLock { $0 } }
    func set() { value.withLock { $0 = true } }
}

import Dispatch
import Synchronization

/// Runs async database work for a synchronous caller (a request handler on an event loop) and waits for it, at most
/// `deadline` seconds. The HTTP framework's handlers are synchronous; a device route costs its event loop one
/// database round trip (under a millisecond on a local socket), bounded here so an unreachable database cannot
/// hold a loop longer than the deadline. The work runs on the cooperative pool, never on the waiting thread.
///
/// At most `Gate.limit` loops wait at once (one fewer than there are loops): a database that accepts connections but
/// answers slowly stalls at most those, and every other loop keeps serving; a request past the limit is refused at
/// once (`Busy`, a 503 with `Retry-After`) instead of taking a loop too.
enum BlockingBridge {
    struct TimedOut: Error {}
    struct Busy: Error {}

    final class Gate: Sendable {
        let limit: Int
        private let waiting = Atomic<Int>(0)

        init(limit: Int) { self.limit = max(1, limit) }

        /// One fewer than the event loops, at least one.
        convenience init(loops: Int) { self.init(limit: loops - 1) }

        func enter() -> Bool {
            if waiting.add(1, ordering: .acquiringAndReleasing).newValue <= limit { return true }
            waiting.subtract(1, ordering: .acquiringAndReleasing)
            return false
        }

        func leave() { waiting.subtract(1, ordering: .acquiringAndReleasing) }

        var current: Int { waiting.load(ordering: .acquiring) }
    }

    static func run<T: Sendable>(deadline: Double, gate: Gate, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        guard gate.enter() else { throw Busy() }
        defer { gate.leave() }
        return try run(deadline: deadline, work)
    }

    static func run<T: Sendable>(deadline: Double, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        let outcome = Outcome<T>()
        let task = Task.detached {
            let result: Result<T, any Error>
            do { result = .success(try await work()) } catch { result = .failure(error) }
            outcome.result.withLock { $0 = result }
            outcome.done.signal()
        }
        guard outcome.done.wait(timeout: .now() + deadline) == .success else {
            task.cancel()
            throw TimedOut()
        }
        return try outcome.result.withLock { $0! }.get()
    }

    private final class Outcome<T: Sendable>: Sendable {
        let result = Mutex<Result<T, any Error>?>(nil)
        let done = DispatchSemaphore(value: 0)
    }
}

import Dispatch
import Synchronization

/// Runs async database work for a synchronous caller (a device route's handler, on the server's off-loop worker
/// threads: `runsOffLoop`) and waits for it, at most `deadline` seconds, so an unreachable database cannot hold a
/// worker longer than that. The work runs on the cooperative pool, never on the waiting thread.
///
/// At most `Gate.limit` callers wait at once (as many as the connection pool has connections): a request past the
/// limit is refused at once (`Busy`, a 503 with `Retry-After`) instead of queueing for a connection.
enum BlockingBridge {
    struct TimedOut: Error {}
    struct Busy: Error {}

    final class Gate: Sendable {
        let limit: Int
        private let waiting = Atomic<Int>(0)

        init(limit: Int) { self.limit = max(1, limit) }

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

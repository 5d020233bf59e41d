import Dispatch
import Synchronization

/// Runs async database work for a synchronous caller (a request handler on an event loop) and waits for it, at most
/// `deadline` seconds. The HTTP framework's handlers are synchronous; a device route costs its event loop one
/// database round trip (under a millisecond on a local socket), bounded here so an unreachable database cannot
/// hold a loop longer than the deadline. The work runs on the cooperative pool, never on the waiting thread.
enum BlockingBridge {
    struct TimedOut: Error {}

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

import Foundation
import Synchronization

/// The threads that run handlers allowed to block (`Route.runsOffLoop`): a loop hands such a request over and goes
/// on serving its other connections, and the answer comes back through the loop's mailbox. A fixed number of
/// threads, so at most that many handlers wait at once; the rest queue in arrival order.
final class OffLoopWorkers: Sendable {
    let count: Int
    private let queue = Mutex(Queue())
    private let ready = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    private struct Queue {
        var jobs: [@Sendable () -> Void] = []
        var started = false
        var stopping = false
    }

    init(count: Int) { self.count = max(1, count) }

    /// Starts the threads (once).
    func start() {
        guard queue.withLock({ queue in defer { queue.started = true }; return !queue.started }) else { return }
        for index in 0..<count {
            let thread = Thread { [self] in
                run()
                finished.signal()
            }
            thread.name = "petty-worker-\(index)"
            thread.start()
        }
    }

    func submit(_ job: @escaping @Sendable () -> Void) {
        queue.withLock { $0.jobs.append(job) }
        ready.signal()
    }

    /// Lets the queued jobs finish, then ends the threads and waits for them.
    func stop() {
        let started = queue.withLock { queue in
            queue.stopping = true
            return queue.started
        }
        guard started else { return }
        for _ in 0..<count { ready.signal() }
        for _ in 0..<count { finished.wait() }
    }

    private func run() {
        while true {
            ready.wait()
            let job = queue.withLock { queue -> (@Sendable () -> Void)? in
                queue.jobs.isEmpty ? nil : queue.jobs.removeFirst()
            }
            // One signal per job and one per thread at stop: a wake-up that finds no job is this thread's stop.
            guard let job else { return }
            job()
        }
    }
}

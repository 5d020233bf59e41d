import Foundation
import Synchronization

/// Where a service's task runs: a thread of its own, not the cooperative pool or a shared dispatch pool. A service
/// may block (a save is file I/O and fsync), and a shutdown that waits on a busy pool could otherwise wait long
/// to see the service end. The thread ends after `finish()`, once the jobs already queued have run.
public final class ServiceExecutor: TaskExecutor {
    private struct Queue {
        var jobs: [UnownedJob] = []
        var finished = false
    }
    private let queue = Mutex(Queue())
    private let wake = DispatchSemaphore(value: 0)

    public init(label: String) {
        let thread = Thread { [self] in
            while let job = next() { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
        thread.name = label
        thread.start()
    }

    public func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.withLock { $0.jobs.append(job) }
        wake.signal()
    }

    /// Lets the thread end once nothing is queued.
    public func finish() {
        queue.withLock { $0.finished = true }
        wake.signal()
    }

    /// The next job, waiting for one; nil once finished and drained.
    private func next() -> UnownedJob? {
        while true {
            let (job, finished) = queue.withLock { queue -> (UnownedJob?, Bool) in
                queue.jobs.isEmpty ? (nil, queue.finished) : (queue.jobs.removeFirst(), false)
            }
            if let job { return job }
            if finished { return nil }
            wake.wait()
        }
    }
}

import Dispatch

/// Where a service's task runs: its own serial dispatch queue, not the cooperative pool. A service may block
/// (a save is file I/O and fsync), and a shutdown that waits on a blocked pool could otherwise never see the
/// service end.
final class ServiceExecutor: TaskExecutor {
    private let queue: DispatchQueue

    init(label: String) {
        queue = DispatchQueue(label: label)
    }

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedTaskExecutor()) }
    }
}

import Dispatch
import Synchronization

/// Runs services, each in its own task, and stops them in reverse order: each is cancelled and awaited before
/// the one registered before it, so the first registered (persistence) stops last, after every writer.
/// Each runs on its own `ServiceExecutor`, so stopping never waits for a free thread in the cooperative pool.
///
/// A service whose `run()` throws (anything but `CancellationError`) is logged at error level and handled by its
/// `ServiceEndPolicy`: `onEnd` is called for `.shutDownServer` (the application
/// then shuts down), nothing more for `.keepServing`. Nothing restarts a service in-process. A throw from
/// `prepare()` stops `start()` instead.
public final class ServiceGroup: Sendable {
    public let services: [any Service]
    private let logger: Logger
    private struct Running {
        var task: Task<Void, Never>
        /// Signalled when `run()` has returned.
        var ended: DispatchSemaphore
        var executor: ServiceExecutor
    }
    private let running = Mutex<[Running]>([])

    private let onEnd: @Sendable (ServiceEndedError) -> Void

    public init(services: [any Service], logger: Logger, onEnd: @escaping @Sendable (ServiceEndedError) -> Void = { _ in }) {
        self.services = services
        self.logger = logger
        self.onEnd = onEnd
    }

    /// Prepares every service (any throw stops here, nothing runs), then starts each `run()`; returns at once.
    public func start() throws {
        for service in services { try service.prepare() }
        let (logger, onEnd) = (logger, onEnd)
        let started = services.map { service in
            let ended = DispatchSemaphore(value: 0)
            let executor = ServiceExecutor(label: "petty-service-\(service.name)")
            let task = Task.detached(executorPreference: executor, priority: .utility) {
                defer { ended.signal() }
                let reason: String
                do {
                    // A service with nothing to do (no providers to poll) may return at once: that is not an end.
                    try await service.run()
                    return
                } catch {
                    guard !(error is CancellationError && Task.isCancelled) else { return }
                    reason = "\(error)"
                }
                switch service.whenItEnds {
                case .shutDownServer:
                    logger.error("service \(service.name) ended (\(reason)); shutting the server down")
                    onEnd(ServiceEndedError(service: service.name, reason: reason))
                case .keepServing:
                    logger.error("service \(service.name) ended (\(reason)); serving on without it")
                }
            }
            return Running(task: task, ended: ended, executor: executor)
        }
        running.withLock { $0 = started }
    }

    /// Cancels and awaits the services, last registered first. Blocks the calling thread (the one that runs the
    /// shutdown, never a task); safe to call twice.
    public func stop() {
        let stopping = running.withLock { running in
            defer { running = [] }
            return running
        }
        for (service, run) in zip(services, stopping).reversed() {
            run.task.cancel()
            if run.ended.wait(timeout: .now() + service.stopTimeout) == .timedOut {
                logger.warning("\(service.name) did not stop within \(Int(service.stopTimeout))s; leaving it to the process exit")
            } else {
                run.executor.finish()
            }
        }
    }
}

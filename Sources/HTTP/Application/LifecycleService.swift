/// Long-running work started with the server and stopped on shutdown (pollers, persistence).
/// `start` must return promptly: a service runs its own thread or task.
public protocol LifecycleService: AnyObject, Sendable {
    var name: String { get }
    func start() throws
    /// Stops the work and returns when it has stopped.
    func shutdown()
}

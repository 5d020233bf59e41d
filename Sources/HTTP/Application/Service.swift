/// Long-running work that runs with the server (pollers, the follower, persistence): `run()` owns its loop and
/// returns once its task is cancelled, which is the graceful stop. The shape of swift-service-lifecycle's
/// `Service`; `ServiceGroup` starts and stops them.
public protocol Service: Sendable {
    var name: String { get }
    /// How long a stop may take before the group gives up waiting and leaves the task to the process exit.
    var stopTimeout: Double { get }
    /// Runs before any service starts; a throw fails `Application.start()` (a data directory already locked).
    func prepare() throws
    /// The work. Returns (or throws `CancellationError`) promptly once the task is cancelled.
    func run() async throws
}

extension Service {
    public var stopTimeout: Double { 10 }
    public func prepare() throws {}
}

/// Suspends until the current task is cancelled: for services that only act when they are stopped.
public func waitForCancellation() async {
    while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 3_600_000_000_000)
    }
}

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
    /// What the server does when `run()` throws before the service was stopped.
    var whenItEnds: ServiceEndPolicy { get }
}

extension Service {
    public var stopTimeout: Double { 10 }
    public func prepare() throws {}
    public var whenItEnds: ServiceEndPolicy { .shutDownServer }
}

/// What happens when a service's `run()` throws before it was stopped: the role swift-service-lifecycle gives its
/// failure termination behaviour. A `run()` that returns is done (a poller service with no providers returns at
/// once), never a failure. Services that must keep going handle their own
/// errors inside `run()` (retrying with backoff, reporting in `/health`); this is what remains when one cannot.
public enum ServiceEndPolicy: Sendable, Equatable {
    /// The server shuts down gracefully and `Application.run()` throws `ServiceEndedError`, so the process exits
    /// non-zero and its supervisor restarts it: a server that lost a duty it was started for must not look healthy.
    case shutDownServer
    /// Logged at error level; the server keeps serving without the service.
    case keepServing
}

/// A service ended on its own under `ServiceEndPolicy.shutDownServer`.
public struct ServiceEndedError: Error, CustomStringConvertible {
    public let service: String
    public let reason: String
    public var description: String { "service \(service) ended: \(reason)" }
}

/// Suspends until the current task is cancelled: for services that only act when they are stopped.
public func waitForCancellation() async {
    while !Task.isCancelled {
        try? await Task.sleep(nanoseconds: 3_600_000_000_000)
    }
}

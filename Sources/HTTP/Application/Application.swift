#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Synchronization

/// Configure routes and middleware, then `run()`. Routes are frozen into the responder when the server starts.
// @unchecked: configured on one thread before start(); after that only the frozen responder is shared, and it is immutable.
public final class Application: RoutesBuilder, @unchecked Sendable {
    public var environment: Environment
    public var server = ServerConfiguration()
    public var logger: Logger
    /// Global middleware, outermost first. Defaults: request logging, then error rendering.
    public var middleware: [any Middleware]
    public private(set) var routes: [Route] = []
    public private(set) var services: [any Service] = []
    private var serviceGroup: ServiceGroup?
    /// What `run()` waits on, and the first service that ended under `.shutDownServer`.
    private let stopRequest = Mutex<DispatchSemaphore?>(nil)
    private let endedService = Mutex<ServiceEndedError?>(nil)
    private var httpServer: HTTPServer?
    private var frozenResponder: DefaultResponder?

    public init(environment: Environment = .development, logger: Logger? = nil) {
        self.environment = environment
        let logger = logger ?? Logger(label: "petty", level: environment == .testing ? .warning : .info)
        self.logger = logger
        self.middleware = []
        middleware = [requestLog, errors]
    }

    /// The request log the default middleware starts with, for apps that lay out their own list.
    public var requestLog: RequestLoggingMiddleware { RequestLoggingMiddleware(logger: logger.labelled("http")) }
    /// The error renderer the default middleware ends with (details hidden in release environments).
    public var errors: ErrorMiddleware { ErrorMiddleware(revealDetails: !environment.isRelease, logger: logger) }

    public func add(_ route: Route) {
        precondition(frozenResponder == nil, "routes are frozen once the application has a responder")
        routes.append(route)
    }

    public func register(service: any Service) {
        services.append(service)
    }

    /// The responder every request goes through, built once.
    public var responder: DefaultResponder {
        if let frozenResponder { return frozenResponder }
        let responder = DefaultResponder(routes: routes, middleware: middleware, loops: server.threads)
        frozenResponder = responder
        return responder
    }

    /// Requests by route and status, latencies, bytes sent and open connections, summed over the event loops.
    public var metrics: HTTPMetrics { responder.metrics }

    /// The bound port once started (the real one when configured with port 0).
    public var boundPort: Int? { httpServer?.port }

    /// Binds, starts the event loops and the services, and returns. A route table with conflicting parameter
    /// names is refused here with an error, before the router would stop the process.
    public func start() throws {
        let conflicts = responder.router.conflicts
        guard conflicts.isEmpty else { throw RouteConflictError(conflicts: conflicts) }
        let server = HTTPServer(configuration: self.server, responder: responder, metrics: responder.metrics, logger: logger)
        try server.start()
        httpServer = server
        let group = ServiceGroup(services: services, logger: logger) { [weak self] ended in self?.serviceEnded(ended) }
        try group.start()
        serviceGroup = group
        // The bound port, not the configured one: with port 0 only this line tells an operator where to connect.
        logger.notice("listening on http://\(self.server.hostname):\(server.port ?? self.server.port)")
    }

    /// The one shutdown order, safe to call twice: the listener closes (new connections are refused at once),
    /// in-flight requests finish within the grace period, services are cancelled and awaited in reverse
    /// registration order (so the first registered, persistence, stops last and saves after every writer has
    /// stopped). Work that must happen at shutdown is a service's: it runs when its `run()` is cancelled.
    public func shutdown() {
        httpServer?.shutdown()
        httpServer = nil
        serviceGroup?.stop()
        serviceGroup = nil
        services = []
    }

    /// The signals `run()` answers with a graceful shutdown. SIGHUP is among them: we have no configuration to
    /// reload, and its default action would kill the process without draining or stopping the services.
    public static let stopSignals: [Int32] = [SIGTERM, SIGINT, SIGHUP]

    /// Starts, then blocks until one of `stopSignals` arrives or a service ends under
    /// `ServiceEndPolicy.shutDownServer`, then shuts down gracefully; throws `ServiceEndedError` in the second case.
    public func run() throws {
        let stop = DispatchSemaphore(value: 0)
        var sources: [DispatchSourceSignal] = []
        for signalNumber in Self.stopSignals {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: .global())
            source.setEventHandler { stop.signal() }
            source.resume()
            sources.append(source)
        }
        defer { sources.forEach { $0.cancel() } }
        try run(until: stop)
    }

    /// `run()` without the signals: starts, waits for `stop` (or an ended service), shuts down.
    func run(until stop: DispatchSemaphore) throws {
        stopRequest.withLock { $0 = stop }
        try start()
        stop.wait()
        logger.notice("shutdown requested; draining connections (up to \(server.shutdownGraceSeconds)s)")
        shutdown()
        logger.notice("stopped")
        if let ended = endedService.withLock({ $0 }) { throw ended }
    }

    private func serviceEnded(_ ended: ServiceEndedError) {
        endedService.withLock { if $0 == nil { $0 = ended } }
        stopRequest.withLock { $0 }?.signal()
    }
}

/// Routes that name one parameter position differently; see `Router.conflicts`.
public struct RouteConflictError: Error, CustomStringConvertible {
    public let conflicts: [String]
    public var description: String { "conflicting route parameters: \(conflicts.joined(separator: "; "))" }
}

#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// The listener plus its event loops. `start()` binds and returns; `shutdown()` drains and joins the loops.
// @unchecked: `listener` and `loops` change only in start() and shutdown(), called from one thread; loops share only atomics.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    private let context: ServerContext
    private var listener: Listener?
    private var loops: [EventLoop] = []

    /// `metrics` receives the bytes sent and the open connections (the responder counts requests).
    public init(configuration: ServerConfiguration, responder: Responder, metrics: HTTPMetrics? = nil, logger: Logger) {
        self.configuration = configuration
        let metrics = metrics ?? HTTPMetrics(routePatterns: [], loops: configuration.threads)
        self.context = ServerContext(configuration: configuration, responder: responder, metrics: metrics, logger: logger)
    }

    /// The bound port (useful with port 0); nil before `start()`.
    public var port: Int? { listener?.port }

    public var openConnections: Int { context.metrics.openConnections.load(ordering: .relaxed) }

    public func start() throws(ListenerError) {
        Sys.ignoreSIGPIPE()
        Sys.raiseFileDescriptorLimit()
        let listener = try Listener(host: configuration.hostname, port: configuration.port)
        self.listener = listener
        do {
            loops = try (0..<max(1, configuration.threads)).map { try EventLoop(index: $0, context: context, listener: listener) }
        } catch let error as SocketError {
            listener.close()
            throw .system(error)
        } catch {
            listener.close()
            throw .system(SocketError("epoll"))
        }
        loops.forEach { $0.start() }
    }

    /// Refuses new connections at once, lets in-flight requests finish (up to the grace period), closes the rest,
    /// and returns when every loop has ended.
    public func shutdown() {
        loops.forEach { $0.requestDrain() }
        // After the drain request, so a loop woken by the dead listener finds the drain flag and unregisters it
        // instead of spinning; before the loops finish, because a loop busy with a slow request cannot.
        listener?.stopAccepting()
        loops.forEach { $0.waitUntilFinished() }
        loops = []
        listener?.close()
        listener = nil
    }
}

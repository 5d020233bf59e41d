#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// The event loops, each with its own listener on the one port. `start()` binds and returns; `shutdown()` drains
/// and joins the loops.
// @unchecked: `listeners` and `loops` change only in start() and shutdown(), called from one thread; loops share only atomics.
public final class HTTPServer: @unchecked Sendable {
    public let configuration: ServerConfiguration
    private let context: ServerContext
    private var listeners: [Listener] = []
    private var loops: [EventLoop] = []

    /// `metrics` receives the bytes sent and the open connections (the responder counts requests).
    public init(configuration: ServerConfiguration, responder: Responder, metrics: HTTPMetrics? = nil, logger: Logger) {
        self.configuration = configuration
        let metrics = metrics ?? HTTPMetrics(routePatterns: [], loops: configuration.threads)
        self.context = ServerContext(configuration: configuration, responder: responder, metrics: metrics, logger: logger)
    }

    /// The bound port (useful with port 0); nil before `start()`.
    public var port: Int? { listeners.first?.port }

    public var openConnections: Int { context.metrics.openConnections.load(ordering: .relaxed) }

    public func start() throws(ListenerError) {
        SystemCall.ignoreSIGPIPE()
        SystemCall.raiseFileDescriptorLimit()
        let count = max(1, configuration.threads)
        // One listening socket per loop (SO_REUSEPORT): under `Connection: close` traffic a single shared accept
        // queue costs about 8% of throughput (`Benchmarks/bench.sh` close row). The trade: a connection waits for
        // the loop the kernel hashed it to, which is why every handler answers from memory.
        // A probe without SO_REUSEPORT first, so a port another process holds is still an error: the group's
        // sockets would otherwise share it with a second Petty of the same user.
        let probe = try Listener(host: configuration.hostname, port: configuration.port, listening: false)
        let port = probe.port
        probe.close()
        var listeners: [Listener] = []
        for _ in 0..<count {
            do { listeners.append(try Listener(host: configuration.hostname, port: port, reusePort: true)) } catch {
                listeners.forEach { $0.close() }
                throw error
            }
        }
        self.listeners = listeners
        do {
            let reserve = DescriptorReserve(count: count)
            loops = try (0..<count).map {
                try EventLoop(index: $0, context: context, listener: listeners[$0], reserve: reserve)
            }
        } catch let error as SocketError {
            listeners.forEach { $0.close() }
            throw .system(error)
        } catch {
            listeners.forEach { $0.close() }
            throw .system(SocketError("epoll"))
        }
        context.workers.start()
        loops.forEach { $0.start() }
    }

    /// Refuses new connections at once, lets in-flight requests finish (up to the grace period), closes the rest,
    /// and returns when every loop has ended.
    public func shutdown() {
        loops.forEach { $0.requestDrain() }
        // After the drain request, so a loop woken by the dead listener finds the drain flag and unregisters it
        // instead of spinning; before the loops finish, because a loop busy with a slow request cannot.
        listeners.forEach { $0.stopAccepting() }
        loops.forEach { $0.waitUntilFinished() }
        context.workers.stop()
        loops = []
        listeners.forEach { $0.close() }
        listeners = []
    }
}

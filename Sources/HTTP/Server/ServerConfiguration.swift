#if canImport(Glibc)
import Glibc
#endif

/// How the server listens, how much it accepts, and how long it waits. Defaults are production defaults.
public struct ServerConfiguration: Sendable {
    public var hostname = "127.0.0.1"
    public var port = 8080
    /// Event loop threads; one per core by default.
    public var threads = ServerConfiguration.coreCount
    public var limits = HTTPParserLimits()
    /// Connections beyond this are answered 503 and closed at once.
    public var maxConnections = 20_000
    /// A keep-alive connection with no request in progress is closed after this long.
    public var idleTimeoutSeconds = 60.0
    /// A request whose header section is not complete this long after its first byte gets 408 (slowloris).
    /// A new connection's first request counts from accept: one that sends nothing at all is closed.
    public var headerTimeoutSeconds = 10.0
    /// A request body not complete this long after its head gets 408, however steadily it trickles in.
    public var bodyTimeoutSeconds = 30.0
    /// A request body that makes no progress for this long gets 408 (before the deadline above).
    public var bodyIdleTimeoutSeconds = 20.0
    /// A client that reads none of its pending response for this long is disconnected.
    public var writeTimeoutSeconds = 30.0
    /// On a stop signal (SIGTERM, SIGINT, SIGHUP), in-flight requests get this long to finish before connections are closed.
    public var shutdownGraceSeconds = 5.0
    /// A connection stops reading new requests while this many response bytes wait for the client.
    public var maxPendingOutputBytes = 1024 * 1024
    /// Threads for the handlers of routes that run off the loop (`Route.runsOffLoop`): how many may block at once.
    public var offLoopThreads = 4
    /// The `Server` header; no version, on purpose.
    public var serverName = "Petty"

    public init() {}

    public static var coreCount: Int {
        #if canImport(Glibc)
        return max(1, Int(sysconf(Int32(_SC_NPROCESSORS_ONLN))))
        #else
        return 1
        #endif
    }
}


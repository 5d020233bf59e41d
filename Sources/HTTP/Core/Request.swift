/// One parsed request as handlers see it. A value: middleware that changes it passes a new copy on.
public struct Request: Sendable {
    public var head: HTTPRequestHead
    public var body: [UInt8]
    /// Values captured by `:name`, `*` and `**` path components of the matched route.
    public var parameters = Parameters()
    /// The matched route's pattern (`/v1/stations/:id`), or nil when no route matched.
    public var route: String?
    /// The numeric address of the TCP peer (nginx, when behind it).
    public var peerAddress: String
    /// The client's address as the server trusts it (set by proxy-aware middleware); defaults to the peer.
    public var clientAddress: String
    /// A short id unique within this process, for logs.
    public var id: RequestID
    /// Free-form values middleware hands to handlers.
    public var userInfo: [String: String] = [:]
    /// Why no route answered, decided by the one route match; read by the miss responder.
    var miss: RouteMiss = .notFound

    public init(head: HTTPRequestHead, body: [UInt8] = [], peerAddress: String = "127.0.0.1", id: RequestID = .unnumbered) {
        self.head = head
        self.body = body
        self.peerAddress = peerAddress
        self.clientAddress = peerAddress
        self.id = id
    }

    public var method: HTTPMethod { head.method }
    public var headers: HTTPHeaders { head.headers }
    public var version: HTTPVersion { head.version }
    public var path: String { head.path }
    public var pathSegments: [String] { head.pathSegments }

    /// The decoded query string. Parsed on each access; read it once into a local in hot handlers.
    public var query: URLQuery { URLQuery(head.rawQuery) }
}

/// `loop-sequence`, e.g. `1-42`: unique per process without any shared counter.
public struct RequestID: Sendable, Hashable, CustomStringConvertible {
    public var loop: Int
    public var sequence: UInt64

    /// The id of a request no event loop numbered (one built in a test or by a tool).
    public static let unnumbered = RequestID(loop: 0, sequence: 0)

    public var description: String { "\(loop)-\(sequence)" }
}

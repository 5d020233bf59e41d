/// Size limits the parser enforces. Defaults suit a public JSON API.
public struct HTTPParserLimits: Sendable {
    /// Longest request line (method, target, version); over it: 414.
    public var maxRequestLineBytes: Int = 8 * 1024
    /// Longest header section (all field lines); over it: 431.
    public var maxHeaderBytes: Int = 32 * 1024
    /// Most header fields; over it: 431. A client's 100, plus the `proxyAddedFields` a reverse proxy in front adds:
    /// a client then has the same room through the proxy as directly (only the proxy's own fields are more).
    public var maxHeaderCount: Int = 100 + HTTPParserLimits.proxyAddedFields
    /// What the shipped nginx adds to every request it proxies: X-Real-IP, X-Forwarded-For and X-Forwarded-Proto
    /// (`deploy/nginx/petty-locations.conf`; it sets Host and Connection in place of the client's).
    public static let proxyAddedFields = 3
    /// Largest body, whether by Content-Length or the sum of chunks; over it: 413.
    public var maxBodyBytes: Int = 1024 * 1024

    public init() {}
}

/// Why a request could not be parsed: the status to answer and a short reason for the body.
/// After any of these the connection must be closed (the framing can no longer be trusted).
public struct HTTPParseError: Error, Sendable, Equatable, CustomStringConvertible {
    public var status: HTTPStatus
    public var reason: String

    public init(_ status: HTTPStatus, _ reason: String) {
        self.status = status
        self.reason = reason
    }

    public var description: String { "\(status.code) \(reason)" }
}

/// The three outcomes of parsing the bytes received so far.
public enum HTTPParseResult: Sendable {
    /// A whole request: its head, its decoded body (chunked bodies de-chunked), and how many bytes it used.
    case complete(HTTPRequestHead, body: [UInt8], consumed: Int)
    /// Not enough bytes yet. `head` is set once the header section is complete (e.g. to answer `Expect: 100-continue`).
    case needMore(head: HTTPRequestHead?)
    /// The bytes are not a valid request, or break a limit.
    case failure(HTTPParseError)
}

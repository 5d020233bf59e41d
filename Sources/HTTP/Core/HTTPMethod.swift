/// A request method token (RFC 9110 §9). Known methods are cases; any other valid token is `.other`.
public enum HTTPMethod: Hashable, Sendable, CustomStringConvertible {
    case GET, HEAD, POST, PUT, DELETE, PATCH, OPTIONS, TRACE, CONNECT
    case other(String)

    public init(token: String) {
        switch token {
        case "GET": self = .GET
        case "HEAD": self = .HEAD
        case "POST": self = .POST
        case "PUT": self = .PUT
        case "DELETE": self = .DELETE
        case "PATCH": self = .PATCH
        case "OPTIONS": self = .OPTIONS
        case "TRACE": self = .TRACE
        case "CONNECT": self = .CONNECT
        default: self = .other(token)
        }
    }

    public var rawValue: String {
        switch self {
        case .GET: "GET"
        case .HEAD: "HEAD"
        case .POST: "POST"
        case .PUT: "PUT"
        case .DELETE: "DELETE"
        case .PATCH: "PATCH"
        case .OPTIONS: "OPTIONS"
        case .TRACE: "TRACE"
        case .CONNECT: "CONNECT"
        case .other(let token): token
        }
    }

    public var description: String { rawValue }

    /// Methods this server recognises: routed, so a path no route takes them on answers 405 with `Allow`
    /// (RFC 9110 §15.5.6). TRACE and QUERY (the IETF's safe method with a body) are known but never routed,
    /// so they are 405 too. CONNECT (this is no proxy) and unknown tokens are 501 Not Implemented (§15.6.2).
    public var isImplemented: Bool {
        switch self {
        case .GET, .HEAD, .POST, .PUT, .DELETE, .PATCH, .OPTIONS, .TRACE: true
        case .other(let token): token == "QUERY"
        case .CONNECT: false
        }
    }
}

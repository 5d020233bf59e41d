/// An error that knows the response it should become. Rendered as `{"error": true, "reason": "..."}`.
public protocol AbortError: Error {
    var status: HTTPStatus { get }
    var reason: String { get }
    var headers: HTTPHeaders { get }
}

extension AbortError {
    public var headers: HTTPHeaders { [:] }
}

/// The everyday `AbortError`: `throw Abort(.notFound, reason: "No station with id 7")`.
public struct Abort: AbortError, Sendable, CustomStringConvertible {
    public var status: HTTPStatus
    public var reason: String
    public var headers: HTTPHeaders

    public init(_ status: HTTPStatus, reason: String? = nil, headers: HTTPHeaders = [:]) {
        self.status = status
        self.reason = reason ?? status.reasonPhrase
        self.headers = headers
    }

    public var description: String { "Abort(\(status.code)): \(reason)" }
}

extension HTTPParseError: AbortError {}

/// Thrown by the terminal responder when no route matched, so file serving and error rendering can tell a miss apart.
public struct RouteNotFound: AbortError, Sendable {
    public var status: HTTPStatus { .notFound }
    public var reason: String { "Not Found" }
    public init() {}
}

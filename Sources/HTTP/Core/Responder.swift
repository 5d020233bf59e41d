/// Turns a request into a response. Handlers run on the event loop thread and must not block, unless their route
/// runs off the loop (`runsOffLoop`), when the server answers through `reply(owning:)`.
public protocol Responder: Sendable {
    func respond(to request: Request) throws -> Response
    /// The server's entry: the request handed over, so a responder that fills in what routing found
    /// (`DefaultResponder`) does it in place instead of copying every field's storage. Defaults to `respond(to:)`.
    func respond(owning request: consuming Request) throws -> Response
    /// Whether the response to a request with this head cannot depend on its body (the server then answers a
    /// client waiting on `Expect: 100-continue` at once). Defaults to false: every body is read.
    func answersWithoutBody(_ head: HTTPRequestHead) -> Bool
    /// What the server calls: the response now, or work that may block, which the server runs on a worker thread
    /// while the event loop goes on serving, and whose response it writes back on the connection's own loop.
    /// Defaults to `.now(respond(owning:))`.
    func reply(owning request: consuming Request) throws -> Reply
}

/// A responder's answer to the server: a response now, or the work that will make it later.
public enum Reply: Sendable {
    case now(Response)
    /// Run off the event loop; throwing renders as an unhandled error would.
    case later(@Sendable () throws -> Response)
}

extension Responder {
    public func respond(owning request: consuming Request) throws -> Response {
        try respond(to: request)
    }

    public func answersWithoutBody(_ head: HTTPRequestHead) -> Bool { false }

    public func reply(owning request: consuming Request) throws -> Reply {
        .now(try respond(owning: request))
    }
}

/// A responder from a closure.
public struct ClosureResponder: Responder {
    let closure: @Sendable (Request) throws -> Response

    public init(_ closure: @escaping @Sendable (Request) throws -> Response) {
        self.closure = closure
    }

    public func respond(to request: Request) throws -> Response {
        try closure(request)
    }
}

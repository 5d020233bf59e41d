/// Turns a request into a response. Handlers run on the event loop thread and must not block.
public protocol Responder: Sendable {
    func respond(to request: Request) throws -> Response
    /// The server's entry: the request handed over, so a responder that fills in what routing found
    /// (`DefaultResponder`) does it in place instead of copying every field's storage. Defaults to `respond(to:)`.
    func respond(owning request: consuming Request) throws -> Response
    /// Whether the response to a request with this head cannot depend on its body (the server then answers a
    /// client waiting on `Expect: 100-continue` at once). Defaults to false: every body is read.
    func answersWithoutBody(_ head: HTTPRequestHead) -> Bool
}

extension Responder {
    public func respond(owning request: consuming Request) throws -> Response {
        try respond(to: request)
    }

    public func answersWithoutBody(_ head: HTTPRequestHead) -> Bool { false }
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

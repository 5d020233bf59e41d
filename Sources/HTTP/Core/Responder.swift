/// Turns a request into a response. Handlers run on the event loop thread and must not block.
public protocol Responder: Sendable {
    func respond(to request: Request) throws -> Response
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

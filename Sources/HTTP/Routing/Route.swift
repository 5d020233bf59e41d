/// A registered route: method, path pattern and the responder built for it at boot.
public struct Route: Sendable, CustomStringConvertible {
    public let method: HTTPMethod
    public let path: [PathComponent]
    /// `path` written out (`/v1/stations/:id`), made once: every request records it for the log and metrics.
    public let pattern: String
    /// The handler with this route's own middleware folded around it (global middleware is added at boot).
    public let responder: Responder
    /// The handler may block (it waits on a database, say): the server runs it on a worker thread, never on an
    /// event loop, and writes its response back on the connection's loop.
    public let runsOffLoop: Bool

    public init(method: HTTPMethod, path: [PathComponent], responder: Responder, runsOffLoop: Bool = false) {
        self.method = method
        self.path = path
        self.pattern = path.pattern
        self.responder = responder
        self.runsOffLoop = runsOffLoop
    }

    public var description: String { "\(method.rawValue) \(pattern)" }
}

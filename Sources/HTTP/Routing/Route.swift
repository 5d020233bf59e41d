/// A registered route: method, path pattern and the responder built for it at boot.
public struct Route: Sendable, CustomStringConvertible {
    public let method: HTTPMethod
    public let path: [PathComponent]
    /// The handler with this route's own middleware folded around it (global middleware is added at boot).
    public let responder: Responder

    public init(method: HTTPMethod, path: [PathComponent], responder: Responder) {
        self.method = method
        self.path = path
        self.responder = responder
    }

    public var description: String { "\(method.rawValue) \(path.pattern)" }
}

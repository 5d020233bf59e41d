/// The application's responder, built once at boot: global middleware folded around every route,
/// and around the miss paths (404, 405, OPTIONS, 501) so those render like any other response.
public final class DefaultResponder: Responder {
    public let router: Router
    private let missResponder: Responder

    public init(routes: [Route], middleware: [any Middleware]) {
        let router = Router(routes: routes.map { route in
            Route(method: route.method, path: route.path, responder: middleware.makeResponder(chainingTo: route.responder))
        })
        self.router = router
        self.missResponder = middleware.makeResponder(chainingTo: ClosureResponder { request in
            try DefaultResponder.respondToMiss(request, router: router)
        })
    }

    public func respond(to request: Request) throws -> Response {
        var request = request
        guard request.method.isImplemented else {
            return try missResponder.respond(to: request)
        }
        switch router.match(method: request.method, segments: request.pathSegments) {
        case .found(let route, let parameters):
            request.parameters = parameters
            request.route = route.path.pattern
            return try route.responder.respond(to: request)
        case .methodNotAllowed, .notFound:
            return try missResponder.respond(to: request)
        }
    }

    /// The terminal responder for requests no route answers.
    static func respondToMiss(_ request: Request, router: Router) throws -> Response {
        guard request.method.isImplemented else {
            throw Abort(.notImplemented, reason: "Method \(request.method.rawValue) is not implemented")
        }
        switch router.match(method: request.method, segments: request.pathSegments) {
        case .found:
            // Unreachable: found routes never take the miss path.
            throw RouteNotFound()
        case .methodNotAllowed(let allowed):
            let allow = allowed.map(\.rawValue).joined(separator: ", ")
            if request.method == .OPTIONS {
                return Response(status: .noContent, headers: ["Allow": allow])
            }
            throw Abort(.methodNotAllowed, reason: "Method \(request.method.rawValue) is not allowed here; allowed: \(allow)", headers: ["Allow": allow])
        case .notFound:
            throw RouteNotFound()
        }
    }
}

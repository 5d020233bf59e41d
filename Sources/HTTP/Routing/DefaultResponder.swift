/// The application's responder, built once at boot: global middleware folded around every route,
/// and around the miss paths (404, 405, OPTIONS, 501) so those render like any other response.
/// Each chain is measured as a whole into `metrics`, counted under its route pattern.
public final class DefaultResponder: Responder {
    public let router: Router
    public let metrics: HTTPMetrics
    private let missResponder: Responder

    /// `loops`: how many event loops count requests (one block of counters each).
    public init(routes: [Route], middleware: [any Middleware], loops: Int = 1) {
        let metrics = HTTPMetrics(routePatterns: routes.map(\.pattern), loops: loops)
        let router = Router(routes: routes.map { route in
            let chain = middleware.makeResponder(chainingTo: route.responder)
            return Route(
                method: route.method, path: route.path,
                responder: MeasuredResponder(slot: metrics.slot(for: route.pattern), metrics: metrics, inner: chain),
                runsOffLoop: route.runsOffLoop)
        })
        self.router = router
        self.metrics = metrics
        let miss = middleware.makeResponder(chainingTo: ClosureResponder { request in
            try DefaultResponder.respondToMiss(request)
        })
        self.missResponder = MeasuredResponder(slot: metrics.slot(for: nil), metrics: metrics, inner: miss)
    }

    public func respond(to request: Request) throws -> Response {
        try respond(owning: request)
    }

    public func respond(owning request: consuming Request) throws -> Response {
        try resolve(&request).responder.respond(owning: request)
    }

    /// A route that runs off the loop answers later: its whole chain (middleware, measurement) runs on the worker.
    public func reply(owning request: consuming Request) throws -> Reply {
        let (responder, runsOffLoop) = resolve(&request)
        guard runsOffLoop else { return .now(try responder.respond(owning: request)) }
        let request = copy request
        return .later { try responder.respond(to: request) }
    }

    /// Routes `request` (recording its parameters, pattern or miss) to the responder that answers it.
    private func resolve(_ request: inout Request) -> (responder: Responder, runsOffLoop: Bool) {
        guard request.method.isImplemented else {
            request.miss = .notImplemented
            return (missResponder, false)
        }
        switch router.match(method: request.method, segments: request.pathSegments) {
        case .found(let route, let parameters):
            request.parameters = parameters
            request.route = route.pointee.pattern
            return (route.pointee.responder, route.pointee.runsOffLoop)
        case .methodNotAllowed(let allowed):
            request.miss = .methodNotAllowed(allowed: allowed)
            return (missResponder, false)
        case .notFound:
            request.miss = .notFound
            return (missResponder, false)
        }
    }

    /// A method no route implements, or a path no route takes with it: the miss path answers (404, 405, 501, an
    /// OPTIONS 204 or a static file) from the head alone.
    public func answersWithoutBody(_ head: HTTPRequestHead) -> Bool {
        guard head.method.isImplemented else { return true }
        if case .found = router.match(method: head.method, segments: head.pathSegments) { return false }
        return true
    }

    /// The terminal responder for requests no route answers, from the reason `respond(to:)` recorded.
    static func respondToMiss(_ request: Request) throws -> Response {
        switch request.miss {
        case .notImplemented:
            throw Abort(.notImplemented, reason: "Method \(request.method.rawValue) is not implemented")
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

/// Why a request took the miss path.
enum RouteMiss: Sendable {
    case notImplemented
    case methodNotAllowed(allowed: [HTTPMethod])
    case notFound
}

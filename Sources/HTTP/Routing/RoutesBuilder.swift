/// Collects routes while the application is configured (Vapor-style `app.get("v1", "stations", ":id") { req in ... }`).
public protocol RoutesBuilder {
    func add(_ route: Route)
}

extension RoutesBuilder {
    /// `runsOffLoop`: the handler may block, so the server runs it on a worker thread (see `Route.runsOffLoop`).
    @discardableResult
    public func on<R: ResponseEncodable>(
        _ method: HTTPMethod, _ path: [PathComponent], runsOffLoop: Bool = false,
        use handler: @escaping @Sendable (Request) throws -> R
    ) -> Route {
        let path = path.flatMap { component -> [PathComponent] in
            if case .constant(let value) = component, value.contains("/") { return .parse([value]) }
            return [component]
        }
        let route = Route(method: method, path: path, responder: ClosureResponder { request in
            try handler(request).encodeResponse(for: request)
        }, runsOffLoop: runsOffLoop)
        add(route)
        return route
    }

    @discardableResult
    public func on<R: ResponseEncodable>(
        _ method: HTTPMethod, _ path: PathComponent..., runsOffLoop: Bool = false, use handler: @escaping @Sendable (Request) throws -> R
    ) -> Route {
        on(method, path, runsOffLoop: runsOffLoop, use: handler)
    }

    @discardableResult
    public func get<R: ResponseEncodable>(_ path: PathComponent..., use handler: @escaping @Sendable (Request) throws -> R) -> Route {
        on(.GET, path, use: handler)
    }

    @discardableResult
    public func post<R: ResponseEncodable>(_ path: PathComponent..., use handler: @escaping @Sendable (Request) throws -> R) -> Route {
        on(.POST, path, use: handler)
    }

    /// Routes registered on the result get this path prefix.
    public func grouped(_ path: PathComponent...) -> RoutesBuilder {
        GroupedRoutes(parent: self, prefix: path, middleware: [])
    }

    /// Routes registered on the result run through these middleware (inside the global ones).
    public func grouped(_ middleware: any Middleware...) -> RoutesBuilder {
        GroupedRoutes(parent: self, prefix: [], middleware: middleware)
    }

    public func group(_ path: PathComponent..., configure: (RoutesBuilder) throws -> Void) rethrows {
        try configure(GroupedRoutes(parent: self, prefix: path, middleware: []))
    }

    public func register(collection: RouteCollection) throws {
        try collection.boot(routes: self)
    }
}

/// A controller registers its routes in one place.
public protocol RouteCollection {
    func boot(routes: RoutesBuilder) throws
}

struct GroupedRoutes: RoutesBuilder {
    let parent: RoutesBuilder
    let prefix: [PathComponent]
    let middleware: [any Middleware]

    func add(_ route: Route) {
        parent.add(Route(
            method: route.method,
            path: prefix + route.path,
            responder: middleware.makeResponder(chainingTo: route.responder),
            runsOffLoop: route.runsOffLoop
        ))
    }
}

/// Wraps a responder: may change the request, short-circuit, or change the response.
public protocol Middleware: Sendable {
    func respond(to request: Request, chainingTo next: Responder) throws -> Response
}

extension Array where Element == any Middleware {
    /// Folds the middleware around a responder once, at boot: the first element is the outermost.
    public func makeResponder(chainingTo responder: Responder) -> Responder {
        reversed().reduce(responder) { next, middleware in MiddlewareResponder(middleware: middleware, next: next) }
    }
}

struct MiddlewareResponder: Responder {
    let middleware: any Middleware
    let next: Responder

    func respond(to request: Request) throws -> Response {
        try middleware.respond(to: request, chainingTo: next)
    }
}

import Clocks
/// One line per request: client, method, route pattern (or path on a miss), status, bytes, duration, request id.
public struct RequestLoggingMiddleware: Middleware {
    let logger: Logger
    let level: Logger.Level

    public init(logger: Logger, level: Logger.Level = .info) {
        self.logger = logger
        self.level = level
    }

    public func respond(to request: Request, chainingTo next: Responder) throws -> Response {
        guard level >= logger.level else { return try next.respond(to: request) }
        let started = MonotonicClock.micros()
        let response = try next.respond(to: request)
        let elapsed = Double(MonotonicClock.micros() - started) / 1000
        let route = request.route ?? request.path
        logger.log(level, "\(request.clientAddress) \(request.method) \(route) \(response.status.code) \(response.body.count)B \(Self.format(elapsed))ms id=\(request.id)")
        return response
    }

    static func format(_ ms: Double) -> String {
        let hundredths = Int((ms * 100).rounded())
        let fraction = hundredths % 100
        return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
    }
}

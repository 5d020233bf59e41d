import Foundation
import HTTP

/// `GET /metrics`: Prometheus text (format 0.0.4) for ops: the HTTP framework's request counters, then the data
/// side. Readable only by `InternalAccess` clients (everyone else gets a 404), and denied by the shipped nginx.
struct MetricsController: RouteCollection {
    let access: InternalAccess
    let fuel: FuelMetrics
    /// The application's request counters (read at scrape time: they exist once the routes are frozen).
    let http: @Sendable () -> HTTPMetricsSnapshot?

    func boot(routes: RoutesBuilder) throws {
        routes.get("metrics", use: metrics)
    }

    func metrics(_ request: Request) throws -> Response {
        try access.check(request)
        var out = PrometheusText()
        http()?.write(to: &out, namespace: "petty")
        let now = fuel.context.clock()
        fuel.write(to: &out, now: now)
        ProcessMetrics.write(to: &out, startedAt: fuel.context.startedAt, now: now)
        return Response(
            status: .ok, headers: ["Content-Type": PrometheusText.contentType, "Cache-Control": "no-store"],
            body: Array(out.text.utf8))
    }
}

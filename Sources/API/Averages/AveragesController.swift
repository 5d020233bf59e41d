import Foundation
import Fuel
import HTTP

/// `GET /v1/averages`: the current average, median, min and max per state and fuel (WA with its regions).
struct AveragesController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "averages", use: context.memoizing(.snapshot, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try AveragesParameters(request)
        let (state, fuel) = (params.state, params.fuel)
        // Each state row, followed by its region rows where the state has regions (WA: metro, regional).
        let regional = Dictionary(grouping: view.averages.regional) { StateFuel($0.state, $0.fuel) }
        let rows = view.averages.all
            .filter { (state == nil || $0.state == state) && (fuel == nil || $0.fuel == fuel) }
            .sorted { ($0.state, $0.fuel) < ($1.state, $1.fuel) }
            .flatMap { [$0] + (regional[StateFuel($0.state, $0.fuel)] ?? []) }
            .map { AverageDTO($0, date: view.index.dataDays[$0.state]) }
        let meta = MetaDTO(view.rendered.meta(for: state), total: rows.count)
        return try JSONResponse.content(Envelope(data: rows, meta: meta), lastModified: view.rendered.lastModified)
    }
}

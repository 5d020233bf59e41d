import Foundation
import Fuel
import HTTP

/// `GET /v1/trends?state=XX&fuel=U91&days=30`: the state's daily averages and where today sits in its cycle.
struct TrendsController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "trends", use: context.memoizing(.snapshot, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let params = try TrendsParameters(request)
        let (state, fuel, days) = (params.state, params.fuel, params.days)
        let asOf = view.index.dataDays[state]
        let trend = view.history.trend(state: state, fuel: fuel, days: days, through: asOf)
        let basis = SeriesBasis.of(view.history.points(state: state, fuel: fuel), day: asOf, stations: view.averages[state, fuel]?.stationCount)
        let dto = TrendDTO(
            state: state.rawValue, fuel: fuel.rawValue, days: days, basis: basis.rawValue, through: trend.through, asOfDate: asOf?.description,
            points: trend.points.map {
                .init(day: $0.day, average: Rounded($0.average), min: CentsValue($0.min), max: CentsValue($0.max), stationCount: $0.stationCount)
            },
            cycle: trend.cycle.map {
                .init(position: Rounded($0.position), direction: $0.direction.rawValue, change: Rounded($0.change), low: Rounded($0.low), high: Rounded($0.high))
            })
        return try JSONResponse.content(Envelope(data: dto, meta: MetaDTO(view.rendered.meta(for: state))), lastModified: view.rendered.lastModified, maxAge: 300)
    }
}

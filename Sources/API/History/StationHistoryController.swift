import Fuel
import HTTP

/// `GET /v1/stations/:id/history?fuel=U91&days=30`: one station's observed price changes and daily low, high and
/// close. A station that has never priced the fuel answers 200 with empty arrays: it exists, and may start to.
struct StationHistoryController: RouteCollection {
    let context: PettyContext


    func boot(routes: RoutesBuilder) throws {
        // Judged by the clock: the window ends on the station's state's day.
        routes.get("v1", "stations", ":id", "history", use: context.memoizing(.second, render: render))
    }

    private func render(_ request: Request, view: PettyView) throws -> Response {
        let raw = request.parameters.get("id") ?? ""
        guard let id = StationID(raw[...]), let entry = view.snapshot[id] else {
            throw Abort(.notFound, reason: "No station with id '\(raw)'")
        }
        let params = try StationHistoryParameters(request)
        let (fuel, days) = (params.fuel, params.days)
        let state = entry.station.state
        let through = HistoryDay.of(asOf: context.now(for: state, in: view), state: state)
        let judge = view.index.judge
        let window = StationPriceWindow(
            marks: view.dataset.stationHistory.marks(id, fuel), state: state, through: through, days: days,
            counts: { judge.isPlausible($0, fuel: fuel, in: state) })
        let dto = StationHistoryDTO(station: entry.station, fuel: fuel, days: days, through: through, window: window)
        return try JSONResponse.content(Envelope(data: dto, meta: MetaDTO(view.rendered.meta(for: state))), lastModified: view.rendered.lastModified)
    }
}

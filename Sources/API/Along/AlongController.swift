import Fuel
import HTTP

/// `GET /v1/stations/along?polyline=...`: stations near a route, as the list of `/v1/stations` with `along_km`
/// and `detour_km` on each. A constant segment wins over `/v1/stations/:id` in the router, so `along` is never an id.
struct AlongController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "stations", "along", use: along)
    }

    func along(_ request: Request) throws -> Response {
        let params = try AlongParameters(request)
        var query = params.query
        let view = context.store.current
        let wall = context.clock()
        if params.openNow { query.access = .openNow(in: view, wall: wall) }
        let page: AlongPage
        do { page = try view.index.along(query) } catch { throw Abort(.badRequest, reason: "\(error)") }
        let slots = SlotPage(
            total: page.total, limit: page.limit, offset: page.offset,
            hits: page.hits.map { SlotPage.Hit(slot: $0.slot, distanceKm: nil) })
        return StationListBody.response(
            page: slots, view: view, state: nil, rawQuery: request.head.rawQuery,
            openNow: OpenNowJudge(clocks: view.clocks, wall: wall)
        ) { index, json in
            json.raw(",\"along_km\":")
            json.decimal(page.hits[index].alongKm, places: 2)
            json.raw(",\"detour_km\":")
            json.decimal(page.hits[index].detourKm, places: 2)
        }
    }
}

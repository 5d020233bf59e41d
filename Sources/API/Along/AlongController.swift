import Fuel
import HTTP

/// `GET /v1/stations/along?polyline=...`: stations near a route, as the list of `/v1/stations` with `along_km`
/// and `detour_km` on each. A constant segment wins over `/v1/stations/:id` in the router, so `along` is never an id.
/// `POST /v1/stations/along` takes the same parameters as a JSON body, for routes too long for a request line.
struct AlongController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "stations", "along", use: along)
        routes.post("v1", "stations", "along", use: alongPosted)
    }

    func along(_ request: Request) throws -> Response {
        try respond(to: AlongParameters(request), hashing: request.head.rawQuery)
    }

    /// The body's parameters only: a query string beside it would make two places to look for one value.
    func alongPosted(_ request: Request) throws -> Response {
        guard request.query.isEmpty else {
            throw Abort(.badRequest, reason: "POST /v1/stations/along takes its parameters in the JSON body, not the query string")
        }
        let query = try JSONParameters.query(of: request, maxBytes: AlongParameters.maxBodyBytes)
        let params = try AlongParameters(QueryReader(query, operation: AlongParameters.operation))
        return try respond(to: params, hashing: String(decoding: request.body, as: UTF8.self))
    }

    private func respond(to params: AlongParameters, hashing text: String?) throws -> Response {
        var query = params.query
        let view = context.store.current
        let wall = context.clock()
        if params.openNow { query.access = .openNow(in: view, wall: wall) }
        let page: AlongPage
        do { page = try view.index.along(query) } catch .routeTooComplex {
            throw Abort(.unprocessableContent, reason: "\(AlongQueryError.routeTooComplex)")
        } catch { throw Abort(.badRequest, reason: "\(error)") }
        let slots = SlotPage(
            total: page.total, limit: page.limit, offset: page.offset,
            hits: page.hits.map { SlotPage.Hit(slot: $0.slot, distanceKm: nil) })
        return StationListBody.response(
            page: slots, view: view, state: nil, rawQuery: text,
            openNow: OpenNowJudge(clocks: view.clocks, wall: wall)
        ) { index, json in
            json.raw(",\"along_km\":")
            json.decimal(page.hits[index].alongKm, places: 2)
            json.raw(",\"detour_km\":")
            json.decimal(page.hits[index].detourKm, places: 2)
        }
    }
}

import Foundation
import Fuel
import HTTP

/// `GET /v1/stations/along?polyline=...`: stations near a route, as the list of `/v1/stations` with `along_km`
/// and `detour_km` on each. A constant segment wins over `/v1/stations/:id` in the router, so `along` is never an id.
/// `POST /v1/stations/along` takes the same parameters as a JSON body, for routes too long for a request line.
/// A request whose exact text was answered before in this snapshot is answered from its kept page (`AlongPageMemo`).
struct AlongController: RouteCollection {
    let context: PettyContext

    func boot(routes: RoutesBuilder) throws {
        routes.get("v1", "stations", "along", use: along)
        routes.post("v1", "stations", "along", use: alongPosted)
    }

    func along(_ request: Request) throws -> Response {
        let raw = request.head.rawQuery
        return try respond(key: raw.map(AlongPageMemo.key(query:)), hashing: raw) { try AlongParameters(request) }
    }

    /// The body's parameters only: a query string beside it would make two places to look for one value.
    func alongPosted(_ request: Request) throws -> Response {
        guard request.query.isEmpty else {
            throw Abort(.badRequest, reason: "POST /v1/stations/along takes its parameters in the JSON body, not the query string")
        }
        // Refused before the kept pages are looked at: a body sent as another media type is never answered.
        try JSONParameters.admit(request, maxBytes: AlongParameters.maxBodyBytes)
        // Keyed only by text that is valid UTF-8: decoding would make two different invalid bodies one key.
        let key = String(validating: request.body, as: UTF8.self).map(AlongPageMemo.key(body:))
        return try respond(key: key, hashing: key?.detail ?? String(decoding: request.body, as: UTF8.self)) {
            let query = try JSONParameters.query(of: request, maxBytes: AlongParameters.maxBodyBytes)
            return try AlongParameters(QueryReader(query, operation: AlongParameters.operation))
        }
    }

    private func respond(key: SnapshotMemo.Key?, hashing text: String?, parse: () throws -> AlongParameters) throws -> Response {
        let view = context.store.current
        let wall = context.clock()
        if let key, let page: AlongPage = context.alongPages.kept(key, in: view, wall: wall) {
            return render(page, view: view, wall: wall, hashing: text)
        }
        let params = try parse()
        var query = params.query
        if params.openNow { query.access = .openNow(in: view, wall: wall) }
        let page: AlongPage
        do { page = try view.index.along(query) } catch .routeTooComplex {
            throw Abort(.unprocessableContent, reason: "\(AlongQueryError.routeTooComplex)")
        } catch { throw Abort(.badRequest, reason: "\(error)") }
        if let key, !params.openNow {
            context.alongPages.keep(page, for: key, in: view, wall: wall, freshness: .snapshot, bytes: AlongPageMemo.bytes(page, key: key))
        }
        return render(page, view: view, wall: wall, hashing: text)
    }

    private func render(_ page: AlongPage, view: PettyView, wall: Date, hashing text: String?) -> Response {
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

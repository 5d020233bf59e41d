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
        let params: QueryParameters
        let route: RoutePath
        if let text = AlongQueryText(rawQuery: request.head.rawQuery) {
            params = try QueryParameters(text.others, allowing: .along)
            route = try params.route(text.points)
        } else {
            params = try QueryParameters(request, allowing: .along)
            route = try params.route()
        }
        var query = AlongQuery(
            route: route,
            detourKm: try params.double("detour_km", in: AlongQuery.detourRange) ?? AlongQuery.defaultDetourKm,
            fuel: try params.fuel(),
            sort: try params.choice("sort", as: AlongQuery.Sort.self) ?? .alongKm,
            limit: try params.int("limit", in: 1...StationsController.maxLimit, default: StationQuery.defaultLimit),
            offset: try params.int("offset", in: 0...1_000_000, default: 0))
        let view = context.store.current
        let wall = context.clock()
        query.access = try params.openNowFilter(in: view, wall: wall)
        let page: AlongPage
        do { page = try view.index.along(query) } catch .routeTooComplex {
            throw Abort(.unprocessableContent, reason: "\(AlongQueryError.routeTooComplex)")
        } catch { throw params.bad("\(error)") }
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

extension QueryParameters {
    /// The parameters of `query` (an along request's without its route: `AlongQueryText`), checked as `init(_:allowing:)`.
    init(_ query: URLQuery, allowing known: KnownParameters) throws {
        self.query = query
        try known.check(query)
    }

    /// `polyline=`: a Google encoded polyline (precision 5) of at most `AlongQuery.maximumPoints` points and
    /// `AlongQuery.maximumLengthKm` km.
    func route(_ name: String = "polyline") throws -> RoutePath {
        guard let raw = try string(name) else {
            throw bad("\(name) is required: the route as a Google encoded polyline (precision 5), e.g. \(name)=_p~iF~ps|U_ulLnnqC")
        }
        let points: [Coordinate]
        do { points = try Polyline.decode(raw, maximumPoints: AlongQuery.maximumPoints) } catch {
            throw bad("\(name) \(error)")
        }
        return try route(points, name)
    }

    /// The route through `points` (decoded from `name`), at most `AlongQuery.maximumLengthKm` km.
    func route(_ points: [Coordinate], _ name: String = "polyline") throws -> RoutePath {
        do { return try RoutePath(points: points, maximumLengthKm: AlongQuery.maximumLengthKm) } catch {
            throw bad("\(name) \(error)")
        }
    }
}

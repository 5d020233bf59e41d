import Fuel
import HTTP

/// The query of `GET /v1/stations/along`: stations near a route.
struct AlongParameters: EndpointParameters {
    static let operation = "/v1/stations/along"
    /// A posted route's body: 2,000 points take at most 12 characters each, with room for the other fields.
    static let maxBodyBytes = 64 * 1024

    enum Name: String, ParameterName {
        /// Required: the route as a Google encoded polyline (precision 5), 2 to 2,000 points, at most 1,500 km.
        case polyline
        /// How far from the route, 0.1 to 20 km (default 2).
        case detourKm = "detour_km"
        /// One fuel code: only stations selling it (and the price `sort=price` ranks).
        case fuel
        /// `true`: only stations open now.
        case openNow = "open_now"
        /// `along_km` (default: in the order met along the route) or `price` (needs `fuel`).
        case sort
        /// Page size, 1 to 500 (default 50).
        case limit
        /// Offset paging.
        case offset
    }

    /// Everything but the access filter, which needs the snapshot (`openNow`).
    let query: AlongQuery
    let openNow: Bool

    init(_ params: QueryReader<Name>) throws {
        try self.init(params, route: params.route(.polyline))
    }

    /// The parameters besides a route read apart from them (`AlongQueryText`).
    init(_ params: QueryReader<Name>, route: RoutePath) throws {
        query = AlongQuery(
            route: route,
            detourKm: try params.double(.detourKm, in: AlongQuery.detourRange) ?? AlongQuery.defaultDetourKm,
            fuel: try params.fuel(.fuel),
            sort: try params.choice(.sort, as: AlongQuery.Sort.self) ?? .alongKm,
            limit: try params.int(.limit, in: 1...StationQuery.maximumLimit, default: StationQuery.defaultLimit),
            offset: try params.int(.offset, in: 0...1_000_000, default: 0))
        openNow = try params.bool(.openNow) ?? false
    }

    /// A GET's query: its route decoded straight from the escaped bytes when the query is plain (`AlongQueryText`),
    /// else read as every other parameter is.
    init(_ request: Request) throws {
        if let text = AlongQueryText(rawQuery: request.head.rawQuery) {
            let params = try QueryReader<Name>(text.others, operation: Self.operation)
            try self.init(params, route: params.route(text.points, .polyline))
        } else {
            try self.init(QueryReader(request.query, operation: Self.operation))
        }
    }
}

extension QueryReader {
    /// A Google encoded polyline (precision 5) of at most `AlongQuery.maximumPoints` points and
    /// `AlongQuery.maximumLengthKm` km.
    func route(_ name: Name) throws -> RoutePath {
        let key = name.rawValue
        guard let raw = try string(name) else {
            throw bad("\(key) is required: the route as a Google encoded polyline (precision 5), e.g. \(key)=_p~iF~ps|U_ulLnnqC")
        }
        let points: [Coordinate]
        do { points = try Polyline.decode(raw, maximumPoints: AlongQuery.maximumPoints) } catch {
            throw bad("\(key) \(error)")
        }
        return try route(points, name)
    }

    /// The route through `points` (decoded from `name`), at most `AlongQuery.maximumLengthKm` km.
    func route(_ points: [Coordinate], _ name: Name) throws -> RoutePath {
        do { return try RoutePath(points: points, maximumLengthKm: AlongQuery.maximumLengthKm) } catch {
            throw bad("\(name.rawValue) \(error)")
        }
    }
}

import Fuel

/// The query of `GET /v1/stations`: every filter combines (AND); the domain (`StationQuery.validate`) checks
/// the combination.
struct StationsParameters: EndpointParameters {
    static let operation = "/v1/stations"

    enum Name: String, ParameterName {
        /// A state code (`NSW`, any case).
        case state
        /// One fuel code, or several (`U91,E10`): stations selling any of them; one fuel also picks the price shown.
        case fuel
        /// Only these brands (`Ampol,Shell`), compared case-insensitively.
        case brand
        /// Leave out these brands.
        case excludeBrand = "exclude_brand"
        /// `true`: only stations open now (plus unknown hours in a state that publishes none).
        case openNow = "open_now"
        /// `lat,lng`: distances from this point, and a radius around it.
        case near
        /// With `near`: how far, 0.1 to 50 km (default 5).
        case radiusKm = "radius_km"
        /// `minLat,minLng,maxLat,maxLng`: a map viewport.
        case bbox
        /// Favourites: up to 100 station ids, in the order given.
        case ids
        /// `distance`, `price`, `name` or `fill_cost`.
        case sort
        /// Page size, 1 to 500 (default 50; favourites: every id asked for).
        case limit
        /// Offset paging, for browsing.
        case offset
        /// `true`: map pins (id, location, one price).
        case compact
        /// `true`: grid clusters instead of stations.
        case cluster
        /// With `cluster`: the map's zoom level (0 to 22), which sizes the grid.
        case zoom
        /// Keyset paging: stations after this id (`meta.next_after`), in id order.
        case after
        /// Words that start a word of the name, brand or suburb.
        case q
        /// Four digits.
        case postcode
        /// With `near` and one fuel: litres to buy (1 to 200, default 40), for `fill_cost`.
        case litres
        /// With `near` and one fuel: the car's consumption (2 to 30, default 8.0), for `fill_cost`.
        case litresPer100Km = "l_per_100km"
        /// `fuel` (default), `ev` (charging only) or `any`; favourites by `ids` default to every kind.
        case kind
    }

    /// `kind=`: which stations a list keeps.
    enum Kind: String, CaseIterable {
        case fuel, ev, any
    }

    /// Everything but the access filter, which needs the snapshot (`openNow`).
    var query: StationQuery
    let openNow: Bool
    let compact: Bool
    let cluster: Bool
    /// nil when not given (`zoom` only sizes clusters; ignored without `cluster=true`).
    let zoom: Int?
    /// Whether the client asked for a page by offset (compact pins are spread over the area otherwise).
    let offsetGiven: Bool

    init(_ params: QueryReader<Name>) throws {
        let near = try params.coordinate(.near)
        let ids = try params.ids(.ids)
        query = StationQuery(
            state: try params.state(.state), near: near, radiusKm: try params.radius(.radiusKm, near: near),
            bbox: try params.boundingBox(.bbox), ids: ids,
            sort: try params.choice(.sort, as: StationQuery.Sort.self),
            // Favourites come whole: every requested id fits one page unless the client asks for less.
            limit: try params.int(.limit, in: 1...StationQuery.maximumLimit, default: ids.map { max(1, Set($0).count) } ?? StationQuery.defaultLimit),
            offset: try params.int(.offset, in: 0...1_000_000, default: 0))
        query.after = try params.stationID(.after)
        query.text = try params.searchWords(.q)
        query.postcode = try params.postcode(.postcode)
        query.fuels = try params.fuels(.fuel)
        query.brands = try params.list(.brand)
        query.excludedBrands = try params.list(.excludeBrand)
        query.fill = try params.fillPlan(litres: .litres, consumption: .litresPer100Km, near: near, fuels: query.fuels)
        switch try params.choice(.kind, as: Kind.self) {
        case nil: query.kinds = .usual
        case .fuel: query.kinds = .only(.fuel)
        case .ev: query.kinds = .only(.ev)
        case .any: query.kinds = .any
        }
        openNow = try params.bool(.openNow) ?? false
        compact = try params.bool(.compact) ?? false
        cluster = try params.bool(.cluster) ?? false
        zoom = try params.int(.zoom, in: 0...22)
        offsetGiven = params.contains(.offset)
        do { try query.validate() } catch { throw params.bad("\(error)") }
    }
}

/// `GET /v1/stations/{id}` takes no query parameters.
struct StationParameters: EndpointParameters {
    static let operation = "/v1/stations/{id}"
    init(_ params: QueryReader<NoParameter>) throws {}
}

import Fuel

/// The query of `GET /v1/prices/cheapest`: the cheapest counted prices of one fuel near a point or in a state.
struct CheapestParameters: EndpointParameters {
    static let operation = "/v1/prices/cheapest"
    static let defaultLimit = 10

    enum Name: String, ParameterName {
        /// Required: one fuel code.
        case fuel
        /// `lat,lng`: the cheapest around this point (this or `state` is required).
        case near
        /// With `near`: how far, 0.1 to 50 km (default 5).
        case radiusKm = "radius_km"
        /// A state code: the cheapest in the state.
        case state
        /// Page size, 1 to 100 (default 10).
        case limit
        /// Offset paging.
        case offset
        /// `true`: only stations open now.
        case openNow = "open_now"
        /// `true`: also stations known to be closed now (left out by default).
        case includeClosed = "include_closed"
        /// `true`: also members-only stations (left out by default).
        case includeMembersOnly = "include_members_only"
        /// With `near`: litres to buy, for `fill_cost`.
        case litres
        /// With `near`: the car's consumption, for `fill_cost`.
        case litresPer100Km = "l_per_100km"
        /// `price` (default) or `fill_cost` (needs `near`).
        case sort
    }

    /// `sort=`: the pump price (default) or the fill cost with the drive counted.
    enum Sort: String, CaseIterable {
        case price
        case fillCost = "fill_cost"
    }

    let fuel: FuelType
    let near: Coordinate?
    let radiusKm: Double?
    let state: AustralianState?
    let limit: Int
    let offset: Int
    /// What the pick leaves out by opening: closed stations unless asked for, or all but the open ones.
    let opening: AccessFilter.Opening?
    let includesMembersOnly: Bool
    let fill: FillPlan?
    let sort: Sort

    init(_ params: QueryReader<Name>) throws {
        fuel = try params.requiredFuel(.fuel)
        near = try params.coordinate(.near)
        state = try params.state(.state)
        guard near != nil || state != nil else { throw params.bad("cheapest needs near=lat,lng or state, e.g. state=NSW") }
        radiusKm = try params.radius(.radiusKm, near: near)
        limit = try params.int(.limit, in: 1...100, default: Self.defaultLimit)
        offset = try params.int(.offset, in: 0...1_000_000, default: 0)
        // The cheapest pick is somewhere to drive to: closed and members-only stations only when asked for.
        opening = try params.bool(.openNow) == true ? .openNow : (try params.bool(.includeClosed) == true ? nil : .notClosed)
        includesMembersOnly = try params.bool(.includeMembersOnly) ?? false
        fill = try params.fillPlan(litres: .litres, consumption: .litresPer100Km, near: near, fuels: [fuel])
        sort = try params.choice(.sort, as: Sort.self) ?? .price
        if sort == .fillCost && fill == nil { throw params.bad("sort=fill_cost needs near=lat,lng") }
    }
}

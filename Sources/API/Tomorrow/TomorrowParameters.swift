import Fuel

/// The query of `GET /v1/tomorrow`: today's against tomorrow's prices where a state publishes them (WA).
struct TomorrowParameters: EndpointParameters {
    static let operation = "/v1/tomorrow"
    static let defaultLimit = 100

    enum Name: String, ParameterName {
        /// A state code (default WA, the only state that publishes next-day prices).
        case state
        /// Only this fuel.
        case fuel
        /// `lat,lng`: only stations within `radius_km` of this point.
        case near
        /// With `near`: how far, 0.1 to 50 km (default 5).
        case radiusKm = "radius_km"
        /// Only these stations (favourites), up to 100 ids.
        case ids
        /// Page size, 1 to 500 (default 100).
        case limit
        /// Offset paging.
        case offset
    }

    let state: AustralianState
    let fuel: FuelType?
    let near: Coordinate?
    let radiusKm: Double
    let ids: [StationID]?
    let limit: Int
    let offset: Int

    init(_ params: QueryReader<Name>) throws {
        state = try params.state(.state) ?? .WA
        fuel = try params.fuel(.fuel)
        near = try params.coordinate(.near)
        radiusKm = try params.radius(.radiusKm, near: near) ?? StationQuery.defaultRadiusKm
        ids = try params.ids(.ids)
        limit = try params.int(.limit, in: 1...StationQuery.maximumLimit, default: Self.defaultLimit)
        offset = try params.int(.offset, in: 0...1_000_000, default: 0)
    }
}

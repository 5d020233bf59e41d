import Fuel

/// The query of `GET /v1/stations/{id}/history`: one station's price changes and daily figures for one fuel.
struct StationHistoryParameters: EndpointParameters {
    static let operation = "/v1/stations/{id}/history"
    static let defaultDays = 30
    static let maxDays = StationHistory.minimumDays

    enum Name: String, ParameterName {
        /// Required: a fuel code.
        case fuel
        /// How many days back, 1 to the days kept (default 30).
        case days
    }

    let fuel: FuelType
    let days: Int

    init(_ params: QueryReader<Name>) throws {
        fuel = try params.requiredFuel(.fuel)
        days = try params.int(.days, in: 1...Self.maxDays, default: Self.defaultDays)
    }
}

import Fuel

/// The query of `GET /v1/trends`: one state's daily figures for one fuel.
struct TrendsParameters: EndpointParameters {
    static let operation = "/v1/trends"
    static let defaultDays = 30
    static let maxDays = 90

    enum Name: String, ParameterName {
        /// Required: a state code.
        case state
        /// Required: a fuel code.
        case fuel
        /// How many days back, 1 to 90 (default 30).
        case days
    }

    let state: AustralianState
    let fuel: FuelType
    let days: Int

    init(_ params: QueryReader<Name>) throws {
        state = try params.requiredState(.state)
        fuel = try params.requiredFuel(.fuel)
        days = try params.int(.days, in: 1...Self.maxDays, default: Self.defaultDays)
    }
}

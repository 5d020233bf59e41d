import Fuel

/// The query of `GET /v1/averages`: current average, minimum and maximum per state and fuel.
struct AveragesParameters: EndpointParameters {
    static let operation = "/v1/averages"

    enum Name: String, ParameterName {
        /// Only this state.
        case state
        /// Only this fuel.
        case fuel
    }

    let state: AustralianState?
    let fuel: FuelType?

    init(_ params: QueryReader<Name>) throws {
        state = try params.state(.state)
        fuel = try params.fuel(.fuel)
    }
}

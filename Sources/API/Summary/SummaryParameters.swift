import Fuel

/// The query of `GET /v1/summary`: one widget's worth for a state and fuel.
struct SummaryParameters: EndpointParameters {
    static let operation = "/v1/summary"

    enum Name: String, ParameterName {
        /// Required: a state code.
        case state
        /// Required: a fuel code.
        case fuel
        /// `lat,lng`: the cheapest near this point, and the advice for its city.
        case near
    }

    let state: AustralianState
    let fuel: FuelType
    let near: Coordinate?

    init(_ params: QueryReader<Name>) throws {
        state = try params.requiredState(.state)
        fuel = try params.requiredFuel(.fuel)
        near = try params.coordinate(.near)
    }
}

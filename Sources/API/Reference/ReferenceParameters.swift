import Fuel

/// `GET /v1/fuels` takes no query parameters.
struct FuelsParameters: EndpointParameters {
    static let operation = "/v1/fuels"
    init(_ params: QueryReader<NoParameter>) throws {}
}

/// The query of `GET /v1/brands`: brands, most stations first.
struct BrandsParameters: EndpointParameters {
    static let operation = "/v1/brands"

    enum Name: String, ParameterName {
        /// Only this state's brands.
        case state
    }

    let state: AustralianState?

    init(_ params: QueryReader<Name>) throws {
        state = try params.state(.state)
    }
}

import HTTP

/// The names one endpoint's query takes: an enum whose cases are the parameters, each documented where it is
/// declared. `allCases` is the list an unknown name is refused against and the contract test compares with
/// `Public/openapi.json`.
protocol ParameterName: RawRepresentable, CaseIterable, Sendable where RawValue == String {}

/// One endpoint's query, declared once as a type (as Vapor's `req.query.decode` and Hummingbird's
/// `decodeQuery(as:)` do): its `Name` enum is every parameter it takes, and `init(_:)` reads them into typed values.
/// Anything else in the query is a 400 that names it (`UnknownParameter`), before any value is read.
protocol EndpointParameters: SendableMetatype {
    associatedtype Name: ParameterName
    /// The operation's path as the spec spells it (`/v1/stations/{id}/history`), for error reasons.
    static var operation: String { get }
    init(_ query: QueryReader<Name>) throws
}

extension EndpointParameters {
    /// The request's query read as this endpoint's parameters.
    init(_ request: Request) throws {
        try self.init(QueryReader(request.query, operation: Self.operation))
    }

    static var names: [String] { Name.allCases.map(\.rawValue) }
}

/// The names of an endpoint that takes no query parameters: none is one.
struct NoParameter: ParameterName {
    let rawValue: String
    init?(rawValue: String) { nil }
    static var allCases: [NoParameter] { [] }
}

/// Every `/v1` endpoint's declaration: what the OpenAPI contract test compares with the spec.
enum DeclaredQueries {
    static let all: [any EndpointParameters.Type] = [
        StationsParameters.self, StationParameters.self, AlongParameters.self, StationHistoryParameters.self,
        CheapestParameters.self, ChangesParameters.self, AveragesParameters.self, TrendsParameters.self,
        TomorrowParameters.self, AdviceParameters.self, SummaryParameters.self, FuelsParameters.self, BrandsParameters.self,
        DeviceAlertsParameters.self, DeviceAlertParameters.self, NotificationsParameters.self,
    ]

    /// The JSON bodies read as declared fields (`JSONParameters`): what the contract test compares with each
    /// operation's request body schema.
    static let bodies: [any EndpointParameters.Type] = [
        DeviceRegistrationParameters.self, DeviceUpdateParameters.self, AlertParameters.self,
    ]
}

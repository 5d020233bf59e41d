import Fuel

/// The query of `GET /v1/advice`: fill up now or wait, for one fuel in one city.
struct AdviceParameters: EndpointParameters {
    static let operation = "/v1/advice"

    enum Name: String, ParameterName {
        /// Required: a fuel code.
        case fuel
        /// `lat,lng`: the metro area containing this point (or, outside every one, WA's published prices nearby).
        case near
        /// A metro area by name; wins over `near`.
        case city
    }

    let fuel: FuelType
    let near: Coordinate?
    /// The city asked for: `city` when given, else the metro area containing `near` (nil outside all of them).
    let city: MetroArea?

    init(_ params: QueryReader<Name>) throws {
        fuel = try params.requiredFuel(.fuel)
        // A malformed `near` is a 400 even beside a `city`.
        near = try params.coordinate(.near)
        if let city = try params.choice(.city, as: MetroArea.self) {
            self.city = city
        } else {
            guard let near else {
                throw params.bad("advice needs near=lat,lng or city (one of \(MetroArea.allCases.map(\.rawValue).joined(separator: ", ")))")
            }
            city = MetroArea.containing(near)
        }
    }
}

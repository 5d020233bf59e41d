/// Values captured from the path by a route's `:name`, `*` and `**` components.
public struct Parameters: Sendable {
    private var values: [(name: String, value: String)] = []
    /// The segments matched by `**`.
    public private(set) var catchall: [String] = []

    public init() {}

    mutating func set(_ name: String, to value: String) {
        values.append((name, value))
    }

    mutating func setCatchall(_ segments: [String]) {
        catchall = segments
    }

    /// The raw (already percent-decoded) value of a parameter.
    public func get(_ name: String) -> String? {
        values.first { $0.name == name }?.value
    }

    /// The value converted, or nil when absent or not convertible (`get("id", as: Int.self)`).
    public func get<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) -> T? {
        get(name).flatMap(T.init)
    }

    /// The value converted, or a 400 that names the parameter.
    public func require<T: LosslessStringConvertible>(_ name: String, as type: T.Type = T.self) throws -> T {
        guard let raw = get(name) else { throw Abort(.badRequest, reason: "Missing path parameter '\(name)'") }
        guard let value = T(raw) else {
            throw Abort(.badRequest, reason: "Path parameter '\(name)' must be a valid \(T.self)")
        }
        return value
    }
}

/// One segment of a route pattern: `"v1"`, `":id"`, `"*"` (any one segment) or `"**"` (the rest of the path).
public enum PathComponent: Hashable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    case constant(String)
    case parameter(String)
    case anything
    case catchall

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public init(_ value: String) {
        if value == "*" { self = .anything }
        else if value == "**" { self = .catchall }
        else if value.hasPrefix(":") { self = .parameter(String(value.dropFirst())) }
        else { self = .constant(value) }
    }

    public var description: String {
        switch self {
        case .constant(let value): value
        case .parameter(let name): ":\(name)"
        case .anything: "*"
        case .catchall: "**"
        }
    }
}

extension Array where Element == PathComponent {
    /// `/v1/stations/:id`
    public var pattern: String { "/" + map(\.description).joined(separator: "/") }

    /// Splits strings such as `"v1/stations"` into components, so `get("v1/stations", ":id")` works too.
    static func parse(_ strings: [String]) -> [PathComponent] {
        strings.flatMap { $0.split(separator: "/").map { PathComponent(String($0)) } }
    }
}

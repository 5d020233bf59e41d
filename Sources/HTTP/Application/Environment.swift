/// Where the application runs; production hides error details.
public struct Environment: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    public init(name: String) { self.name = name.lowercased() }

    public static let production = Environment(name: "production")
    public static let development = Environment(name: "development")
    public static let testing = Environment(name: "testing")

    public var isRelease: Bool { self == .production }
    public var description: String { name }

    /// Accepts `prod`/`production`, `dev`/`development`, `test`/`testing`, or any other name.
    public static func named(_ raw: String) -> Environment {
        switch raw.lowercased() {
        case "prod", "production": .production
        case "dev", "development": .development
        case "test", "testing": .testing
        default: Environment(name: raw)
        }
    }
}

#if canImport(Glibc)
import Glibc
#endif

/// Where and as whom to connect. The password is never part of `description`.
public struct PostgresConfiguration: Sendable, Equatable, CustomStringConvertible {
    public enum Endpoint: Sendable, Equatable {
        case tcp(host: String, port: Int)
        /// The socket file itself: `<dir>/.s.PGSQL.<port>`.
        case unixSocket(path: String)
    }

    public var endpoint: Endpoint
    public var user: String
    public var password: String?
    public var database: String
    public var applicationName: String
    /// Bounds connecting and logging in.
    public var connectTimeout: Double
    /// The default deadline of each query.
    public var queryTimeout: Double

    public init(
        endpoint: Endpoint, user: String, password: String? = nil, database: String, applicationName: String = "petty",
        connectTimeout: Double = 5, queryTimeout: Double = 10
    ) {
        self.endpoint = endpoint
        self.user = user
        self.password = password
        self.database = database
        self.applicationName = applicationName
        self.connectTimeout = connectTimeout
        self.queryTimeout = queryTimeout
    }

    public var description: String {
        let place = switch endpoint {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unixSocket(let path): path
        }
        return "postgres user \(user)\(password == nil ? "" : " (password set)") database \(database) at \(place)"
    }

    /// The socket directory Debian's server uses by default, and libpq's default when a URL names no host.
    public static let defaultSocketDirectory = "/var/run/postgresql"
    public static let defaultPort = 5432

    /// The OS user this process runs as: libpq's default user, and the one `peer` authentication checks.
    static func processUserName() -> String {
        if let entry = getpwuid(geteuid()), let name = entry.pointee.pw_name { return String(cString: name) }
        return "postgres"
    }
}

/// Everything the client can fail with. Messages never carry the password.
public enum PostgresError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The URL or settings are unusable; `reason` says what to change.
    case configuration(String)
    /// The server could not be reached or the connection broke (connect, read or write failed, the server closed it).
    case connection(String)
    /// The server refused the login, or asked for a method this client does not answer.
    case authentication(String)
    /// The server answered with an ErrorResponse.
    case server(PostgresServerError)
    /// The query's deadline passed; the connection was closed (and the query cancelled), not reused.
    case timedOut(seconds: Double)
    /// The server sent something the protocol does not allow here; the connection was closed.
    case protocolViolation(String)

    public var description: String {
        switch self {
        case .configuration(let reason): "database configuration: \(reason)"
        case .connection(let reason): "database connection: \(reason)"
        case .authentication(let reason): "database authentication: \(reason)"
        case .server(let error): "database: \(error)"
        case .timedOut(let seconds): "database: no answer within \(seconds) s"
        case .protocolViolation(let reason): "database protocol: \(reason)"
        }
    }

    /// The server's SQLSTATE, when the server answered with an error.
    public var sqlState: String? {
        if case .server(let error) = self { return error.code }
        return nil
    }
}

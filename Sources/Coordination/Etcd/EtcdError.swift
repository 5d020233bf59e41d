/// Why an etcd call failed, in the terms a fleet member acts on.
public enum EtcdError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No endpoint answered (connection refused, timeout, no quorum behind a gateway that times out).
    case unreachable(String)
    /// The user name or password was refused: retrying will not help until the configuration changes.
    case authentication(String)
    /// etcd answered with an error (gRPC code and message).
    case server(code: Int, message: String)
    /// The answer could not be read.
    case malformed(String)

    public var description: String {
        switch self {
        case .unreachable(let why): "etcd unreachable: \(why)"
        case .authentication(let why): "etcd authentication failed: \(why)"
        case .server(let code, let message): "etcd error \(code): \(message)"
        case .malformed(let why): "etcd answer malformed: \(why)"
        }
    }

    /// gRPC's Unauthenticated with etcd's token messages: the token expired (simple tokens after 5 idle minutes)
    /// or the member restarted; authenticate again and retry.
    var isExpiredToken: Bool {
        guard case .server(let code, let message) = self else { return false }
        return code == 16 || message.contains("invalid auth token") || message.contains("user name is empty")
    }
}

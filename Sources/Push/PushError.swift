public enum PushError: Error, Sendable, Equatable, CustomStringConvertible {
    case configuration(String)
    /// The relay could not take the request after every retry (5xx, timeouts, refused connections), or refused it
    /// outright (4xx).
    case relay(String)

    public var description: String {
        switch self {
        case .configuration(let why): why
        case .relay(let why): "push relay: \(why)"
        }
    }
}

import Postgres

public enum AlertStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A device already has `AlertDefinition.maxPerDevice` alerts.
    case alertLimitReached(limit: Int)
    /// The decision's fencing token is older than the one stored: a deposed leader; nothing was written.
    case fenced(stored: FenceToken, offered: FenceToken)
    /// A stored row could not be read back into its type (a hand edit, or a newer schema).
    case unreadableRow(String)
    case database(PostgresError)

    public var description: String {
        switch self {
        case .alertLimitReached(let limit): "a device may have at most \(limit) alerts"
        case .fenced(let stored, let offered): "fencing token \(offered) is older than the stored \(stored): this member no longer leads"
        case .unreadableRow(let reason): "an unreadable alerts row: \(reason)"
        case .database(let error): error.description
        }
    }
}

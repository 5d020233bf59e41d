import Postgres

public enum AlertStoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A device already has `AlertDefinition.maxPerDevice` alerts.
    case alertLimitReached(limit: Int)
    /// An alert create named an idempotency key an earlier create of another definition used (that alert's id).
    case idempotencyKeyReused(alertID: Int64)
    /// The decision's fencing token is older than the one stored: a deposed leader; nothing was written.
    case fenced(stored: FenceToken, offered: FenceToken)
    /// A stored row could not be read back into its type (a hand edit, or a newer schema).
    case unreadableRow(String)
    case database(PostgresError)

    public var description: String {
        switch self {
        case .alertLimitReached(let limit): "a device may have at most \(limit) alerts"
        case .idempotencyKeyReused(let alertID): "the idempotency key was used to create alert \(alertID), with another definition"
        case .fenced(let stored, let offered): "fencing token \(offered) is older than the stored \(stored): this member no longer leads"
        case .unreadableRow(let reason): "an unreadable alerts row: \(reason)"
        case .database(let error): error.description
        }
    }
}

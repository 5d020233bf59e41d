import Foundation

/// What `/health` (`alerts`) and `/metrics` (`petty_alerts_*`) say about price alerts. App fills it: the database
/// side from the alerts runtime, the evaluator and delivery sides from their services.
public struct AlertsHealth: Sendable, Equatable {
    public enum Status: String, Sendable {
        /// No `PETTY_DATABASE_URL`: alert routes answer 503.
        case off
        /// Configured; connecting or migrating.
        case starting
        case ok
        /// Serving, but something is behind: the database unreachable, the relay failing, a backlog aging.
        case degraded
    }

    /// Whether this member evaluates snapshots: the one that polls (a fleet's leader, or a single instance).
    public enum EvaluatorRole: String, Sendable {
        case off
        case evaluator
        case standby
    }

    public var status: Status = .off
    /// "not configured", "connected", or why it is not (never the URL's password).
    public var database: String = "not configured"
    public var evaluatorRole: EvaluatorRole = .off
    public var lastEvaluatedVersion: UInt64?
    public var lastEvaluatedAt: Date?
    public var backlog: Int?
    public var oldestUnsentSeconds: Double?
    /// "not configured", "ok", or the last failure.
    public var relay: String = "not configured"

    // Counters since start, for /metrics.
    public var alerts: Int?
    public var decisions: Int = 0
    public var sent: Int = 0
    public var failed: Int = 0
    public var evaluationSeconds: Double = 0
    public var evaluations: Int = 0

    public init() {}
}

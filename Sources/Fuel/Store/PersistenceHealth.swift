import Foundation

/// How saving the dataset to (and the last load from) the data directory goes: a value the persistence service
/// owns and `/health` and `/metrics` read.
public struct PersistenceHealth: Sendable, Equatable {
    public var lastSave: Date?
    public var lastError: String?
    public var lastErrorAt: Date?
    public var consecutiveFailures = 0
    /// Failed saves since start (for `/metrics`; `consecutiveFailures` resets on success).
    public var totalFailures = 0
    /// When the next attempt may run while failing (backoff); nil when healthy.
    public var retryAt: Date?
    /// What the start-up load could not use (corrupt files moved aside, contradicting registry entries).
    public var loadProblems: [String] = []
    public var loadedAt: Date?

    public init() {}

    public var isFailing: Bool { consecutiveFailures > 0 }

    /// Backoff after `failures` consecutive failures: 1, 2, 4, ... seconds, at most a minute.
    public static func delay(after failures: Int, base: TimeInterval) -> TimeInterval {
        min(60, base * Double(1 << min(max(failures - 1, 0), 16)))
    }
}

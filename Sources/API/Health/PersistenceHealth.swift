import Foundation

/// How saving to (and the last load from) the data directory goes, for `/health`.
package struct PersistenceHealth: Sendable, Equatable {
    package var lastSave: Date?
    package var lastError: String?
    package var lastErrorAt: Date?
    package var consecutiveFailures = 0
    /// Failed saves since start (for `/metrics`; `consecutiveFailures` resets on success).
    package var totalFailures = 0
    /// When the next attempt may run while failing (backoff); nil when healthy.
    package var retryAt: Date?
    /// What the start-up load could not use (corrupt files moved aside, contradicting registry entries).
    package var loadProblems: [String] = []
    package var loadedAt: Date?

    package init() {}

    package var isFailing: Bool { consecutiveFailures > 0 }

    /// Backoff after `failures` consecutive failures: 1, 2, 4, ... seconds, at most a minute.
    package static func delay(after failures: Int, base: TimeInterval) -> TimeInterval {
        min(60, base * Double(1 << min(max(failures - 1, 0), 16)))
    }
}

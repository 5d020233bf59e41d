import Foundation

/// How one provider's polls are going: attempts, failures and the next poll. Kept by the pollers' status store,
/// apart from the snapshot, so recording a failure or a new schedule never changes the served data, its ETags or
/// files.
public struct ProviderHealth: Hashable, Sendable {
    public enum State: String, Sendable, CaseIterable {
        /// The last attempt delivered plausible data.
        case ok
        /// The last update was empty, implausible or stale-dated; the last good data is still served.
        case stale
        /// The last attempt failed without data (transport, HTTP, decoding, auth).
        case failing
    }

    public var state: State = .ok
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    /// The most recent failure or rejection reason; kept after a later success, for ops.
    public var lastError: String?
    public var lastErrorAt: Date?
    /// Attempts that failed or were rejected since the last success.
    public var consecutiveFailures = 0
    /// Failed or rejected attempts since the server started.
    public var totalFailures = 0
    /// When the poller plans its next attempt.
    public var nextPoll: Date?

    public init() {}
}

/// Each provider's `ProviderHealth` as the pollers last recorded it (the pollers' status store).
public protocol ProviderHealthSource: Sendable {
    var all: [ProviderID: ProviderHealth] { get }
}

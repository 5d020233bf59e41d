import Foundation

/// How a provider is doing, as of a snapshot. Served by `/health`.
public struct ProviderStatus: Hashable, Codable, Sendable {
    public enum State: String, Codable, Sendable, CaseIterable {
        /// The last attempt delivered plausible live data.
        case ok
        /// The last update was empty or implausible; the last good data is still served.
        case stale
        /// The last attempt failed without data (transport, HTTP, decoding, auth).
        case failing
        /// Serving bundled sample data and no attempt has failed since.
        case sample
    }

    public var provider: ProviderID
    public var state: State
    /// Where the served data came from.
    public var source: DataSource
    /// The instant the served data describes (the update's `asOf`), nil before any data.
    public var asOf: Date?
    public var lastAttempt: Date?
    public var lastSuccess: Date?
    /// The most recent failure or rejection reason; kept after a later success, for ops.
    public var lastError: String?
    public var lastErrorAt: Date?
    /// Attempts that failed or were rejected since the last success.
    public var consecutiveFailures: Int
    /// When the poller plans its next attempt, if it said so.
    public var nextPoll: Date?
    public var stationCount: Int
    public var priceCount: Int
    /// The next-day prices held (WA), with the instant this server first held them; nil when none are held.
    public var tomorrow: TomorrowPublication?
    /// Stations (by source id) missing from the last full feeds, with how many in a row; they are removed once
    /// `FeedPolicy.absencesBeforeRemoval` feeds agree. Nil when none are pending.
    public var pendingRemoval: [String: Int]?

    public init(
        provider: ProviderID, state: State, source: DataSource, asOf: Date? = nil, lastAttempt: Date? = nil,
        lastSuccess: Date? = nil, lastError: String? = nil, lastErrorAt: Date? = nil, consecutiveFailures: Int = 0,
        nextPoll: Date? = nil, stationCount: Int = 0, priceCount: Int = 0, tomorrow: TomorrowPublication? = nil
    ) {
        self.provider = provider
        self.state = state
        self.source = source
        self.asOf = asOf
        self.lastAttempt = lastAttempt
        self.lastSuccess = lastSuccess
        self.lastError = lastError
        self.lastErrorAt = lastErrorAt
        self.consecutiveFailures = consecutiveFailures
        self.nextPoll = nextPoll
        self.stationCount = stationCount
        self.priceCount = priceCount
        self.tomorrow = tomorrow
    }

    /// The starting point for a provider we have heard nothing from yet.
    static func initial(_ provider: ProviderID, source: DataSource = .live) -> ProviderStatus {
        ProviderStatus(provider: provider, state: source == .sample ? .sample : .ok, source: source)
    }

    /// True when the served data is younger than `maxAge` at `now` (by the last success).
    public func isFresh(now: Date, maxAge: TimeInterval) -> Bool {
        guard let lastSuccess else { return false }
        return now.timeIntervalSince(lastSuccess) <= maxAge
    }
}

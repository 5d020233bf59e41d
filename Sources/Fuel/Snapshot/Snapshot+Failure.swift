import Foundation

extension Snapshot {
    /// Marks `provider` failing after an attempt that produced no data (transport, HTTP status, decoding,
    /// auth). Stations and prices are untouched: the last good data keeps being served.
    public func markingFailure(provider: ProviderID, error: String, at now: Date) -> Snapshot {
        var status = status(of: provider) ?? .initial(provider)
        status.state = .failing
        status.lastAttempt = now
        status.lastError = error
        status.lastErrorAt = now
        status.consecutiveFailures += 1
        return replacingStatus(status, at: now)
    }
}

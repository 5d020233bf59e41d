import API
import Foundation
import Fuel
import Providers

/// The follower's side of `GET /internal/v1/providers` (`LeaderProvidersBody`): how the leader's provider polls go,
/// so a follower's `/health` shows the leader's provider failures (marked `seen_through: "leader"`) instead of its
/// own (it polls nothing). Small and fetched on every sync, apart from the dataset, since a failed poll changes no
/// dataset (and no ETag). A follower keeps only what is plausible: known providers, bounded texts, instants in range.
enum LeaderProviders {
    /// Every provider's health fits in a few kilobytes.
    static let limits = FollowLimits(maxBytes: 64 << 10, deadline: 10)
    static let maxErrorLength = 512

    static func decode(_ body: [UInt8]) throws -> [ProviderID: ProviderHealth] {
        let entries = try LeaderProvidersBody.decode(body)
        var health: [ProviderID: ProviderHealth] = [:]
        for entry in entries {
            guard let provider = ProviderID(rawValue: entry.provider), let state = ProviderHealth.State(rawValue: entry.state) else { continue }
            var value = ProviderHealth()
            value.state = state
            value.lastAttempt = plausible(entry.lastAttempt)
            value.lastSuccess = plausible(entry.lastSuccess)
            value.lastError = entry.lastError.map { FeedPolicy.hasControlCharacters($0) ? "(unprintable error)" : String($0.prefix(maxErrorLength)) }
            value.lastErrorAt = plausible(entry.lastErrorAt)
            value.consecutiveFailures = max(0, min(entry.consecutiveFailures, LoadLimits.maxCount))
            value.totalFailures = max(0, min(entry.totalFailures, LoadLimits.maxCount))
            value.nextPoll = plausible(entry.nextPoll)
            health[provider] = value
        }
        return health
    }

    private static func plausible(_ date: Date?) -> Date? {
        date.flatMap { DatasetValidation.instants.contains($0.timeIntervalSince1970) ? $0 : nil }
    }
}

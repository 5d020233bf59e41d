import Foundation
import Fuel

/// The body of `/internal/v1/providers`: every provider's poll health, sorted by provider, as JSON with dates in
/// seconds since 1970. A follower decodes the entries and keeps only what is plausible (App's `LeaderProviders`).
package enum LeaderProvidersBody {
    package static let path = "internal/v1/providers"

    package struct Entry: Codable {
        package var provider: String
        package var state: String
        package var lastAttempt: Date?
        package var lastSuccess: Date?
        package var lastError: String?
        package var lastErrorAt: Date?
        package var consecutiveFailures: Int
        package var totalFailures: Int
        package var nextPoll: Date?
    }

    package static func encode(_ health: [ProviderID: ProviderHealth]) throws -> [UInt8] {
        let entries = health.sorted { $0.key < $1.key }.map { provider, health in
            Entry(
                provider: provider.rawValue, state: health.state.rawValue, lastAttempt: health.lastAttempt,
                lastSuccess: health.lastSuccess, lastError: health.lastError, lastErrorAt: health.lastErrorAt,
                consecutiveFailures: health.consecutiveFailures, totalFailures: health.totalFailures, nextPoll: health.nextPoll)
        }
        return Array(try StoredJSON.encoder.encode(entries))
    }

    package static func decode(_ body: [UInt8]) throws -> [Entry] {
        return try StoredJSON.decoder.decode([Entry].self, from: Data(body))
    }
}

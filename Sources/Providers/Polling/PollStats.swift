import Foundation
import Fuel
import Synchronization

/// Poll counts by provider and outcome, and the time spent polling, for `/metrics`. Kept apart from the
/// snapshot's provider statuses so that counting a poll never changes the served data or its ETags.
public final class PollStats: Sendable {
    public enum Outcome: String, Sendable, CaseIterable {
        /// An update was merged.
        case ok
        /// An update arrived but the merge refused it (empty, implausible, misdated).
        case rejected
        /// No usable answer (transport, HTTP, decoding, auth).
        case failed
        /// Nothing was due or nothing new was published.
        case idle
    }

    public struct Provider: Sendable, Equatable {
        public var outcomes: [Outcome: UInt64] = [:]
        public var durationSeconds: Double = 0
        public var polls: UInt64 { outcomes.values.reduce(0, +) }
    }

    private let counts = Mutex<[ProviderID: Provider]>([:])

    public init() {}

    func record(_ outcome: Outcome, for provider: ProviderID, seconds: Double) {
        counts.withLock { counts in
            counts[provider, default: Provider()].outcomes[outcome, default: 0] += 1
            counts[provider, default: Provider()].durationSeconds += seconds
        }
    }

    public var snapshot: [ProviderID: Provider] { counts.withLock { $0 } }
}

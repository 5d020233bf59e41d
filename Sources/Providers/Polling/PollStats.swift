import Foundation
import Fuel
import Synchronization

/// Poll counts by provider and outcome, and the time spent polling (`ProviderPollCounts`), for `/metrics`. Kept apart from the
/// snapshot's provider statuses so that counting a poll never changes the served data or its ETags.
public final class PollStats: PollCountSource {
    private let counts = Mutex<[ProviderID: ProviderPollCounts]>([:])

    public init() {}

    func record(_ outcome: ProviderPollCounts.Outcome, for provider: ProviderID, seconds: Double) {
        counts.withLock { counts in
            counts[provider, default: ProviderPollCounts()].outcomes[outcome, default: 0] += 1
            counts[provider, default: ProviderPollCounts()].durationSeconds += seconds
        }
    }

    public var snapshot: [ProviderID: ProviderPollCounts] { counts.withLock { $0 } }
}

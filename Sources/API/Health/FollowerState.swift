import Foundation
import Fuel

/// How copying from the leader goes (follower mode), kept by the follower and shown in `/health` and `/metrics`.
package struct FollowerState: Sendable {
    /// The validator to send: of the dataset applied last, or of the one refused last (so an unchanged
    /// bad dataset costs a 304, not a download, and stays refused).
    package var etag: String?
    package var lastSync: Date?
    package var lastError: String?
    package var failing = false
    /// Set while the leader's current dataset is the one refused.
    package var refusedETag: String?
    /// Datasets refused since start, by reason.
    package var refusals: [DatasetRefusal.Reason: Int] = [:]
    /// Datasets in a row that showed each growth (`DatasetBounds.growth`); accepted at `FeedPolicy.confirmationsForGrowth`.
    package var growthSeen: [String: Int] = [:]
    /// How the leader's provider polls go, as it last said (nil until a leader that tells has answered).
    package var leaderProviders: [ProviderID: ProviderHealth]?

    package init() {}
}

/// The follower as `/health` and `/metrics` show it: whom it copies from and how that goes.
package struct FollowerStatus: Sendable {
    let leader: String
    package let state: FollowerState

    package init(leader: String, state: FollowerState) {
        self.leader = leader
        self.state = state
    }
}

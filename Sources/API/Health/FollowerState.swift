import Foundation

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

    package init() {}
}

/// The follower as `/health` and `/metrics` show it: whom it copies from and how that goes.
package struct FollowerStatus: Sendable {
    let leader: String
    let state: FollowerState

    package init(leader: String, state: FollowerState) {
        self.leader = leader
        self.state = state
    }
}

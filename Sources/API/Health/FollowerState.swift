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

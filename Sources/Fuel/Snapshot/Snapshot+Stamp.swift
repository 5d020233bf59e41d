import Foundation

extension Snapshot {
    /// The least step between two published changes: 1 ms, so two stamps stay apart through every store that keeps an
    /// instant (the data files and replication as seconds since 1970 in a `Double`, PostgreSQL's `double precision`).
    public static let stampStep: TimeInterval = 0.001

    /// The instant a change published on top of this snapshot is stamped with (its prices' `seenAt`, the new
    /// snapshot's `changedAt`): `now`, or one `stampStep` after this snapshot's `changedAt` when `now` is not later.
    ///
    /// Stamps only move forward, so `FuelIndex.changes(since: s.changedAt)` lists every price published after `s`.
    /// `now` alone does not: each poller merges at the instant its poll started (FuelWatch's seven products take
    /// seconds), so another poller's merge can be published in between with a later `now`, and a follower that took
    /// over stamps with its own clock on top of the leader's snapshot. A cursor (an app's `since`, the alert
    /// evaluator's progress) taken at that snapshot would skip the prices stamped before it.
    public func stamp(at now: Date) -> Date {
        guard let changedAt else { return now }
        return max(now, changedAt.addingTimeInterval(Self.stampStep))
    }
}

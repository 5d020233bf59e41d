import Foundation

/// Whether a client's cursor can be one this server (or another instance of the deployment) issued.
public enum ChangeHorizon {
    /// How far ahead of this instance's feed end and clock a cursor may be: another instance may have merged a
    /// poll this one has not copied yet, and clocks drift a little.
    public static let tolerance: TimeInterval = 15 * 60

    /// A cursor past both the feed's end and the wall clock (beyond the tolerance), or at an infinite instant,
    /// was never issued: paging from it would answer empty pages that echo it forever.
    public static func isFromTheFuture(_ cursor: ChangeCursor, feed: ChangeFeed, wall: Date) -> Bool {
        let newest = max(feed.end.changedAt, feed.log.horizon?.changedAt ?? .distantPast, wall)
        return cursor.changedAt.timeIntervalSinceReferenceDate >= Date.distantFuture.timeIntervalSinceReferenceDate
            || cursor.changedAt > newest.addingTimeInterval(tolerance)
    }
}

import Foundation

/// What a snapshot holds of a provider: where its data came from, the instant it describes, how much of it there
/// is and the facts the merge keeps between feeds. Data only: how the provider's polls are going (attempts,
/// failures, the next poll) lives with the pollers, so a failed poll never changes the snapshot.
public struct ProviderStatus: Hashable, Codable, Sendable {
    public var provider: ProviderID
    /// Where the served data came from.
    public var source: DataSource
    /// The instant the served data describes (the update's `asOf`), nil before any data.
    public var asOf: Date?
    /// The day the served data describes when the update said so (VIC publishes a day late, so its capture
    /// describes the day before); nil when it is the day of `asOf` (`Snapshot.dataDay(of:)`).
    public var describedDay: CalendarDay?
    public var stationCount = 0
    public var priceCount = 0
    /// The next-day prices held (WA), with the instant this server first held them; nil when none are held.
    public var tomorrow: TomorrowPublication?
    /// Stations (by source id) missing from the last full feeds, with how many in a row; they are removed once
    /// `FeedPolicy.absencesBeforeRemoval` feeds agree. Nil when none are pending.
    public var pendingRemoval: [String: Int]?
    /// When each station in `pendingRemoval` was first missed: removal also needs `FeedPolicy.minimumAbsence`.
    public var pendingSince: [String: Date]?
    /// The `asOf` of the last full feed merged: for a provider whose full feed lists every current price
    /// (`PricePolicy.fullFeedConfirms`), every price it listed was current then, however old its `updatedAt`.
    public var fullFeedAt: Date?
    /// Set when this live provider went longer than its limit without a refresh (`QuietProviders`): the instant its
    /// prices turned stale. The next merge that refreshes it clears it.
    public var staleSince: Date?
    /// Full feeds in a row refused for growing too fast (`FeedPolicy`); growth is accepted once enough agree.
    public var growthRejections: Int?
    /// When full feeds began to be refused for pricing a fuel at fewer than half its stations; the shrink is taken
    /// once `FeedPolicy.minimumAbsence` has passed (a fuel gone for good). Cleared by the next feed applied.
    public var shrinkSince: Date?

    /// The starting point for a provider we have no data from yet.
    static func initial(_ provider: ProviderID, source: DataSource = .live) -> ProviderStatus {
        ProviderStatus(provider: provider, source: source)
    }
}

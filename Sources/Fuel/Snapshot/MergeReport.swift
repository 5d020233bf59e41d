/// What merging one provider update did, for logs and `/health`.
public struct MergeReport: Hashable, Sendable {
    public enum Outcome: Hashable, Sendable {
        /// The update was applied.
        case applied
        /// The update was empty or implausible; nothing changed (the poller records the provider stale).
        case rejected(reason: String)
        /// Sample data was offered for a provider that already serves live data; nothing changed.
        case ignored(reason: String)
    }

    public var provider: ProviderID
    public var source: DataSource
    public var isDelta: Bool
    public var outcome: Outcome
    /// Only next-day prices (WA): they say nothing about today's, so a stale or failing today feed stays so.
    public var isTomorrowOnly = false
    public var stationsAdded = 0
    public var stationsUpdated = 0
    public var stationsRemoved = 0
    /// Prices that are new or differ from the previous price for that station and fuel.
    public var pricesChanged = 0
    /// Prices a full update no longer lists.
    public var pricesRemoved = 0
    /// Prices outside `PricePolicy.kept` (tomorrow's: `PricePolicy.plausible`), dropped one by one.
    public var rejectedOutliers = 0
    /// Prices for stations neither in the update nor already known, or of another provider.
    public var orphanPrices = 0
    /// Tomorrow prices from this update attached to a station's price.
    public var tomorrowPrices = 0
    /// Tomorrow prices dated other than the next trading day, dropped.
    public var misdatedTomorrow = 0
    /// Unlisted stations kept until enough full feeds in a row confirm they are gone.
    public var stationsPendingRemoval = 0
    /// Known stations whose new coordinates moved implausibly far; their old location was kept.
    public var heldMoves = 0
    /// Prices kept because the new value was an outlier.
    public var keptOnOutlier = 0
    /// Live prices kept because the feed's row for them was dated earlier (an older copy of the feed).
    public var keptNewer = 0
    /// Price rows dated in the future, dropped.
    public var futureRows = 0
    /// Station records whose text was cut to length.
    public var truncatedTexts = 0
    /// States of the provider's stations, before and after; their trend points are recomputed.
    public var affectedStates: Set<AustralianState> = []

    public init(provider: ProviderID, source: DataSource, isDelta: Bool, outcome: Outcome) {
        self.provider = provider
        self.source = source
        self.isDelta = isDelta
        self.outcome = outcome
    }

    public var isApplied: Bool { outcome == .applied }
}

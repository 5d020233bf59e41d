import Foundation

/// Domain limits on prices.
public enum PricePolicy {
    /// Plausible pump prices: 50.0 ... 500.0 c/L. A price outside is `implausible` whatever its state's band says (a
    /// typo such as 25.9): kept on its station and in its history, flagged, never ranked or averaged. Tomorrow's prices
    /// outside it are dropped (a verdict against a typo would be nonsense).
    public static let plausible = PriceTenths(tenths: 500)...PriceTenths(tenths: 5_000)

    /// Prices a merge keeps: 0.1 ... 999.0 c/L. Outside is no price at all, dropped price by price (never the whole
    /// feed): 0 and QLD/SA's 999.9 are the providers' "not sold here" sentinels.
    public static let kept = PriceTenths(tenths: 1)...PriceTenths(tenths: 9_990)

    /// A price counts as current when it was set at most this many days before its provider's as-of instant.
    /// In slow markets a price stands for weeks (ACT: 6 of 57 U91 prices are under 7 days old, 30 under 30),
    /// so the window is a month. Older prices stay on their station, flagged `stale`, and are left out of
    /// averages, trends, cheapest and `sort=price`. Clients are told the window (`current_within_days`).
    public static let currentWithinDays = 30

    /// Providers whose full feed lists every current price (NSW FuelCheck's `/fuel/prices`, also TAS's): a price
    /// such a feed listed within `currentWithinDays` is current however old its `updatedAt` (an LPG price can
    /// stand for months). The window applies only to prices no full feed confirmed within it.
    public static let fullFeedConfirms: Set<ProviderID> = [.nsw, .tas]

    /// `currentWithinDays` in seconds.
    public static let currentMaxAge: TimeInterval = TimeInterval(currentWithinDays) * 86_400

    /// A price further from its state's median for the fuel than this share of the state's median U91 price (the
    /// same cents for every fuel: `PlausibleBand`) is a placeholder or a typo: kept and flagged `implausible`, but
    /// never ranked or averaged; so is a value several pumps share that is one of those (`PlaceholderPrices`).
    public static let implausibleDeviation = 0.40

    /// Two prices within this many tenths (0.1 c) count as the same.
    public static let sameWithinTenths = 1
}

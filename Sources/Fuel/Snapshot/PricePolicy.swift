import Foundation

/// Domain limits on prices.
public enum PricePolicy {
    /// Plausible pump prices: 50.0 ... 500.0 c/L. Anything else is a sentinel, a unit slip or a typo,
    /// and is dropped price by price (never the whole feed).
    public static let plausible = PriceTenths(tenths: 500)...PriceTenths(tenths: 5_000)

    /// Prices older than this relative to their provider's as-of instant are left out of averages and trends.
    public static let averageMaxAge: TimeInterval = 7 * 86_400

    /// Two prices within this many tenths (0.1 c) count as the same.
    public static let sameWithinTenths = 1
}

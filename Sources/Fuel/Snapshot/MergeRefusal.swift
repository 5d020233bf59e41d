import Foundation

/// Why a full feed is refused before it is merged. The merge decides by the case (only `growth` is remembered
/// across feeds); the report carries the description.
enum MergeRefusal: Hashable, Sendable, CustomStringConvertible {
    /// Dated `day`, but the trading day `current` has started.
    case stale(day: String, current: String)
    case empty
    case noPlausiblePrices(outliers: Int)
    /// Fewer than half the stations known.
    case shrank(stations: Int, known: Int)
    /// `fuel` priced at fewer than half the stations it is held at.
    case fuelShrank(fuel: FuelType, priced: Int, known: Int)
    /// A live feed whose newest price is older than the newest held, by more than `FeedPolicy.maxFeedRegression`.
    case older(newest: Date, held: Date)
    /// More new stations than `FeedPolicy.growthAllowed` at once, before enough feeds in a row confirmed them.
    case growth(stations: Int, known: Int, allowed: Int)

    var description: String {
        switch self {
        case .stale(let day, let current):
            "stale feed: dated \(day), but the trading day \(current) has started; keeping the prices held"
        case .empty:
            "empty update: no stations and no prices"
        case .noPlausiblePrices(let outliers):
            "no plausible prices in a full update (\(outliers) outliers dropped)"
        case .shrank(let stations, let known):
            "implausible update: \(stations) stations, fewer than half of the \(known) known"
        case .fuelShrank(let fuel, let priced, let known):
            "implausible update: \(fuel.rawValue) priced at \(priced) stations, fewer than half of the \(known) holding it"
        case .older(let newest, let held):
            "stale feed: its newest price is from \(ISO8601DateFormatter().string(from: newest)), older than the \(ISO8601DateFormatter().string(from: held)) held; keeping the prices held"
        case .growth(let stations, let known, let allowed):
            "implausible growth: \(stations) stations, \(known) known (at most \(allowed) new at once; "
                + "accepted when \(FeedPolicy.confirmationsForGrowth) feeds in a row show it)"
        }
    }

    var isGrowth: Bool {
        if case .growth = self { return true }
        return false
    }

    var isFuelShrink: Bool {
        if case .fuelShrank = self { return true }
        return false
    }
}

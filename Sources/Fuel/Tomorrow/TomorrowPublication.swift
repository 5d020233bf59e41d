import Foundation

/// Which next-day prices a provider holds, and since when: `published_at` is the instant this server first held
/// them, which is later than FuelWatch's 14:30 whenever the feed (or this server) was late.
public struct TomorrowPublication: Hashable, Codable, Sendable {
    /// The trading day the held prices are for.
    public var day: CalendarDay
    /// When this server first held prices for `day`.
    public var heldSince: Date

    /// When they count as published: never before their scheduled publication (a sample recorded the same
    /// morning carries them from an earlier instant).
    public var publishedAt: Date {
        max(heldSince, WATradingDay.publicationInstant(forTradingDay: day))
    }

    /// How long after the scheduled 14:30 this server first held them (zero when on time).
    public var delay: TimeInterval {
        max(0, heldSince.timeIntervalSince(WATradingDay.publicationInstant(forTradingDay: day)))
    }
}

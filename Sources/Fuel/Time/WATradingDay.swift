import Foundation

/// The WA FuelWatch rule (PROVIDERS.md §2.2): a price holds for 24 hours from 06:00 Perth time, and
/// retailers' prices for the next trading day are published at 14:30 Perth time the day before.
/// A trading day is named by the calendar day on which it starts.
public enum WATradingDay {
    public static let zone: TimeZone = AustralianState.WA.zone
    /// Local hour at which a trading day starts.
    public static let startHour = 6
    /// Local time at which the next trading day's prices are published.
    public static let publicationHour = 14
    public static let publicationMinute = 30

    /// The trading day in force at `instant`; before 06:00 Perth it is still the previous day's.
    public static func tradingDay(containing instant: Date) -> CalendarDay {
        CalendarDay(containing: instant.addingTimeInterval(-Double(startHour) * 3_600), in: zone)
    }

    /// `yyyy-MM-dd` of the trading day in force at `instant`.
    public static func day(containing instant: Date) -> String {
        tradingDay(containing: instant).description
    }

    /// The trading day after the one in force at `instant`: the day "tomorrow's prices" are for.
    public static func nextTradingDay(after instant: Date) -> CalendarDay {
        tradingDay(containing: instant).advanced(by: 1)
    }

    /// 06:00 Perth on `day`, when its prices take effect.
    public static func start(of day: CalendarDay) -> Date {
        day.instant(hour: startHour, in: zone)
    }

    /// 14:30 Perth on the day before `day`, when its prices are published.
    public static func publicationInstant(forTradingDay day: CalendarDay) -> Date {
        day.advanced(by: -1).instant(hour: publicationHour, minute: publicationMinute, in: zone)
    }

    /// String form of `publicationInstant(forTradingDay:)`; nil for text that is not `yyyy-MM-dd`.
    public static func publicationInstant(forTradingDay day: String) -> Date? {
        CalendarDay(day).map { publicationInstant(forTradingDay: $0) }
    }

    /// When tomorrow's prices (for the trading day after the one in force at `now`) are due.
    /// Between midnight and 06:00 this is yesterday 14:30, already past.
    public static func expectedAt(now: Date) -> Date {
        publicationInstant(forTradingDay: nextTradingDay(after: now))
    }

    /// Whether tomorrow's prices count as published: we hold data for the next trading day and its
    /// publication time has passed. An empty feed before 14:30 means "not yet", never "no stations".
    public static func isPublished(now: Date, hasTomorrowData: Bool) -> Bool {
        hasTomorrowData && now >= expectedAt(now: now)
    }
}

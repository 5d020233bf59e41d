import Foundation

/// When the WA poller asks FuelWatch for tomorrow's prices (Perth time, no DST).
///
/// From 14:30 until the next trading day's prices are held: every 10 minutes until 18:00, then every 30 minutes
/// until the 06:00 rollover. A start-up, restart or recovery anywhere in that span asks on its first poll: a
/// server started at 20:00 must not wait for the next afternoon, because motorists read tomorrow's prices all
/// evening.
public enum WATomorrowSchedule {
    public static let fastRetry: TimeInterval = 10 * 60
    public static let slowRetry: TimeInterval = 30 * 60
    /// Local hour on the publication day after which retries slow down.
    public static let slowFromHour = 18

    /// The span, at `now`, in which tomorrow's prices are sought: from the next trading day's publication to its
    /// start. Nil outside it (06:00–14:30 Perth).
    public static func window(at now: Date) -> ClosedRange<Date>? {
        let day = WATradingDay.nextTradingDay(after: now)
        let opens = WATradingDay.publicationInstant(forTradingDay: day)
        let closes = WATradingDay.start(of: day)
        guard now >= opens, now < closes else { return nil }
        return opens...closes
    }

    /// The wait after an attempt made at `attempt`: 10 minutes before 18:00 on the publication day, else 30.
    public static func retryInterval(after attempt: Date) -> TimeInterval {
        let publication = WATradingDay.expectedAt(now: attempt)
        let slowFrom = CalendarDay(containing: publication, in: WATradingDay.zone).instant(hour: slowFromHour, in: WATradingDay.zone)
        return attempt < slowFrom ? fastRetry : slowRetry
    }

    /// Whether to ask for tomorrow's prices at `now`, given whether they are `held` and the last attempt.
    public static func isDue(at now: Date, held: Bool, lastAttempt: Date?) -> Bool {
        guard !held, let window = window(at: now) else { return false }
        guard let lastAttempt, lastAttempt >= window.lowerBound else { return true }
        return now >= lastAttempt.addingTimeInterval(retryInterval(after: lastAttempt))
    }

    /// The next instant at which tomorrow's prices should be asked for, after `now`.
    public static func nextAttempt(after now: Date, held: Bool, lastAttempt: Date?) -> Date {
        if !held, let window = window(at: now) {
            guard let lastAttempt, lastAttempt >= window.lowerBound else { return now }
            let retry = lastAttempt.addingTimeInterval(retryInterval(after: lastAttempt))
            if retry < window.upperBound { return retry }
        }
        // Outside the window, held, or no retry left before 06:00: the next window opens at the next publication.
        let day = WATradingDay.nextTradingDay(after: now)
        let opens = WATradingDay.publicationInstant(forTradingDay: day)
        return now < opens ? opens : WATradingDay.publicationInstant(forTradingDay: day.advanced(by: 1))
    }
}

import Foundation
import Fuel

/// Daily windows in a state's zone (NSW polls between 05:00 and 23:00 Sydney time).
enum DailyWindow {
    /// `hour:minute` local on the calendar day containing `instant`.
    static func instant(_ instant: Date, hour: Int, minute: Int = 0, in zone: TimeZone) -> Date {
        CalendarDay(containing: instant, in: zone).instant(hour: hour, minute: minute, in: zone)
    }

    /// `candidate`, moved into the daily window `[start, end)` local hours: before it, to the window's start that
    /// day; at or after its end, to the next day's start.
    static func clamp(_ candidate: Date, toDailyWindow start: Int, _ end: Int, in zone: TimeZone) -> Date {
        let day = CalendarDay(containing: candidate, in: zone)
        let opens = day.instant(hour: start, in: zone)
        let closes = day.instant(hour: end, in: zone)
        if candidate < opens { return opens }
        if candidate >= closes { return day.advanced(by: 1).instant(hour: start, in: zone) }
        return candidate
    }
}

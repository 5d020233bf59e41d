import Foundation
import Fuel

/// A daily polling window `[startHour, endHour)` in local hours of `zone` (NSW polls between 05:00 and 23:00 Sydney
/// time, TAS the same hours in Hobart).
struct DailyWindow: Sendable {
    let startHour: Int
    let endHour: Int
    let zone: TimeZone

    /// The same hours in another zone.
    func `in`(_ zone: TimeZone) -> DailyWindow { DailyWindow(startHour: startHour, endHour: endHour, zone: zone) }

    /// How many polls every `interval` (never under a minute) a day's window holds, the first one included.
    func polls(every interval: TimeInterval) -> Int {
        let window = TimeInterval((endHour - startHour) * 3600)
        return Int((window / max(60, interval)).rounded(.up))
    }

    /// `candidate`, moved into the window: before it, to the window's start that day; at or after its end, to the
    /// next day's start.
    func clamp(_ candidate: Date) -> Date {
        let day = CalendarDay(containing: candidate, in: zone)
        let opens = day.instant(hour: startHour, in: zone)
        let closes = day.instant(hour: endHour, in: zone)
        if candidate < opens { return opens }
        if candidate >= closes { return day.advanced(by: 1).instant(hour: startHour, in: zone) }
        return candidate
    }
}

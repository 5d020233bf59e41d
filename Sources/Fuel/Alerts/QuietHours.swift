import Foundation

/// Local hours in which nothing is pushed; `from` after `to` spans midnight ("22:00" to "07:00").
public struct QuietHours: Sendable, Equatable {
    public var from: TimeOfDay
    public var to: TimeOfDay

    public init(from: TimeOfDay, to: TimeOfDay) {
        self.from = from
        self.to = to
    }

    /// Whether a local time of day is quiet: `from` inclusive, `to` exclusive; equal ends mean never quiet.
    public func contains(_ time: TimeOfDay) -> Bool {
        if from == to { return false }
        return from < to ? (from <= time && time < to) : (time >= from || time < to)
    }

    /// When a push decided at `instant` may go out in `zone`: `instant` itself outside quiet hours, else the next
    /// local `to` (on a daylight-saving night that end is an hour nearer or further in real time, never skipped).
    public func deliveryTime(for instant: Date, in zone: TimeZone) -> Date {
        guard contains(TimeOfDay(instant, in: zone)) else { return instant }
        return to.nextOccurrence(onOrAfter: instant, in: zone)
    }
}

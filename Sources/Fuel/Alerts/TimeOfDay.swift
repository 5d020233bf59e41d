import Foundation

/// A wall-clock time of day, "07:30": minutes since local midnight.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var minutes: Int

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.minutes = hour * 60 + minute
    }

    /// Exactly "HH:MM", 00:00 to 23:59.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 5, utf8[2] == UInt8(ascii: ":"),
              let hour = Int(String(decoding: utf8[0..<2], as: UTF8.self)), let minute = Int(String(decoding: utf8[3..<5], as: UTF8.self)),
              utf8.enumerated().allSatisfy({ $0.offset == 2 || ($0.element >= 48 && $0.element <= 57) }) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public init?(minutes: Int) {
        guard (0..<1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minutes < rhs.minutes }

    /// The local time of day of `instant` in `zone`, to the minute.
    public init(_ instant: Date, in zone: TimeZone) {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let parts = calendar.dateComponents([.hour, .minute], from: instant)
        self.minutes = (parts.hour ?? 0) * 60 + (parts.minute ?? 0)
    }

    /// The first instant at or after `instant` whose local time in `zone` is this time. On a day when this time does
    /// not exist (clocks jump forward over it) it moves forward by the jump (02:30 becomes 03:30), never to the next day.
    public func nextOccurrence(onOrAfter instant: Date, in zone: TimeZone) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var day = calendar.startOfDay(for: instant)
        for _ in 0..<3 {
            if let candidate = occurrence(on: day, calendar), candidate >= instant { return candidate }
            day = calendar.date(byAdding: .day, value: 1, to: day) ?? day.addingTimeInterval(86_400)
        }
        return instant
    }

    private func occurrence(on day: Date, _ calendar: Calendar) -> Date? {
        var parts = calendar.dateComponents([.year, .month, .day], from: day)
        parts.hour = hour
        parts.minute = minute
        return calendar.date(from: parts)
    }
}


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

    /// The first instant at or after `instant` at which the local time in `zone` is this time. On the night clocks go
    /// back over it the time happens twice, and with `repeats` the second counts (after 02:40 on the first pass the
    /// next 02:30 is the repeat that night: where quiet hours end); without, only a day's first (a daily time happens
    /// once a day). On the night clocks jump over it, the jump is the first instant past it (02:30 skipped by a jump
    /// from 02:00 to 03:00 is 03:00).
    public func nextOccurrence(onOrAfter instant: Date, in zone: TimeZone, repeats: Bool = true) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        var day = calendar.startOfDay(for: instant)
        for _ in 0..<3 {
            for candidate in occurrences(on: day, calendar).prefix(repeats ? 2 : 1) where candidate >= instant { return candidate }
            day = calendar.date(byAdding: .day, value: 1, to: day) ?? day.addingTimeInterval(86_400)
        }
        return instant
    }

    /// This time's instants on the local `day`, in order: one, two when clocks go back over it, or the jump's
    /// instant when they skip it.
    private func occurrences(on day: Date, _ calendar: Calendar) -> [Date] {
        var parts = calendar.dateComponents([.year, .month, .day], from: day)
        parts.hour = hour
        parts.minute = minute
        guard let first = calendar.date(from: parts) else { return [] }
        let zone = calendar.timeZone
        guard TimeOfDay(first, in: zone) == self else {
            // Skipped: Foundation lands past the jump by as long as the time was past its start (02:30 gives 03:30).
            let window = first.addingTimeInterval(-6 * 3_600)
            if let jump = zone.nextDaylightSavingTimeTransition(after: window), jump <= first { return [jump] }
            return [first]
        }
        // Repeated: the offset drops at a transition within that drop after the first pass.
        if let back = zone.nextDaylightSavingTimeTransition(after: first) {
            let drop = TimeInterval(zone.secondsFromGMT(for: first) - zone.secondsFromGMT(for: back))
            if drop > 0, back <= first.addingTimeInterval(drop) {
                let repeated = first.addingTimeInterval(drop)
                if TimeOfDay(repeated, in: zone) == self { return [first, repeated] }
            }
        }
        return [first]
    }
}

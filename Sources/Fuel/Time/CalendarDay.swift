import Foundation

/// A civil calendar day (proleptic Gregorian), stored as days since 1970-01-01.
/// Formats and parses `yyyy-MM-dd` by hand: no `DateFormatter`, cheap enough for per-request paths.
public struct CalendarDay: Hashable, Comparable, Sendable, CustomStringConvertible, Codable {
    /// Days since 1970-01-01 (negative before).
    public var dayNumber: Int

    public init(dayNumber: Int) { self.dayNumber = dayNumber }

    public init?(year: Int, month: Int, day: Int) {
        guard (1...12).contains(month), day >= 1, day <= Self.daysIn(month: month, year: year) else { return nil }
        dayNumber = Self.daysFromCivil(year: year, month: month, day: day)
    }

    /// Parses exactly `yyyy-MM-dd`.
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 10, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-") else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for index in range {
                let byte = bytes[index]
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10) else { return nil }
        self.init(year: year, month: month, day: day)
    }

    /// The local calendar day containing `instant` in `timeZone`.
    public init(containing instant: Date, in timeZone: TimeZone) {
        let offset = timeZone.secondsFromGMT(for: instant)
        let local = instant.timeIntervalSince1970 + Double(offset)
        dayNumber = Int((local / 86_400).rounded(.down))
    }

    public var components: (year: Int, month: Int, day: Int) { Self.civilFromDays(dayNumber) }

    /// `yyyy-MM-dd`
    public var description: String {
        let (year, month, day) = components
        var text = ""
        text.reserveCapacity(10)
        if year < 1000 { text += year < 10 ? "000" : year < 100 ? "00" : "0" }
        text += String(year)
        text += month < 10 ? "-0" : "-"
        text += String(month)
        text += day < 10 ? "-0" : "-"
        text += String(day)
        return text
    }

    public func advanced(by days: Int) -> CalendarDay { CalendarDay(dayNumber: dayNumber + days) }

    public func days(since other: CalendarDay) -> Int { dayNumber - other.dayNumber }

    /// The instant of a local wall-clock time on this day in `timeZone`.
    /// Times skipped by a DST jump resolve to the instant after it.
    public func instant(hour: Int, minute: Int = 0, in timeZone: TimeZone) -> Date {
        let wall = Double(dayNumber * 86_400 + hour * 3_600 + minute * 60)
        var offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall))
        offset = timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: wall - Double(offset)))
        return Date(timeIntervalSince1970: wall - Double(offset))
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.dayNumber < rhs.dayNumber }

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        guard let day = CalendarDay(text) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "Expected yyyy-MM-dd, got \(text)")
        }
        self = day
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }

    // Howard Hinnant's civil-date algorithms (public domain). The one copy of this arithmetic in the package.
    /// Days since 1970-01-01 of a proleptic Gregorian date.
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// The inverse of `daysFromCivil`.
    public static func civilFromDays(_ days: Int) -> (year: Int, month: Int, day: Int) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let day = doy - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    public static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

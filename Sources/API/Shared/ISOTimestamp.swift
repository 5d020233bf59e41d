#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Fuel

/// `2026-01-14T22:51:45Z` without a formatter (used while rendering snapshots, thousands at a time).
package enum ISOTimestamp {
    /// Always RFC 3339: the year has four digits, and instants outside years 0000–9999 (only reachable
    /// through an echoed query such as `since=0000-01-01T00:00:00+01:00`) are clamped to that range.
    package static func string(_ date: Date) -> String {
        let seconds = min(max(date.timeIntervalSince1970.rounded(.down), earliest), latest)
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        let year = Int(parts.tm_year) + 1900
        let yearText = String(repeating: "0", count: max(0, 4 - String(year).count)) + String(year)
        return "\(yearText)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }

    /// 0000-01-01T00:00:00Z and 9999-12-31T23:59:59Z.
    static let earliest = Double(CalendarDay.daysFromCivil(year: 0, month: 1, day: 1) * 86_400)
    static let latest = Double(CalendarDay.daysFromCivil(year: 10_000, month: 1, day: 1) * 86_400 - 1)

    /// Strict RFC 3339: `2026-01-14T22:51:45Z`, optional fraction, `Z` or `±hh:mm`; or a bare `2026-01-14`
    /// (midnight UTC). Anything else, including impossible dates and missing offsets, is nil.
    static func parse(_ text: String) -> Date? {
        let b = Array(text.utf8)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= b.count else { return nil }
            var value = 0
            for i in range {
                guard b[i] >= 0x30 && b[i] <= 0x39 else { return nil }
                value = value * 10 + Int(b[i] - 0x30)
            }
            return value
        }
        guard b.count >= 10, let year = number(0..<4), b[4] == 0x2D, let month = number(5..<7), b[7] == 0x2D,
              let day = number(8..<10), (1...12).contains(month), (1...CalendarDay.daysIn(month: month, year: year)).contains(day)
        else { return nil }
        var seconds = 0
        var offset = 0
        var fraction = 0.0
        if b.count > 10 {
            guard b.count >= 20, b[10] == 0x54 || b[10] == 0x74, let hour = number(11..<13), b[13] == 0x3A,
                  let minute = number(14..<16), b[16] == 0x3A, let second = number(17..<19),
                  hour < 24, minute < 60, second < 60
            else { return nil }
            seconds = hour * 3600 + minute * 60 + second
            var i = 19
            if b[i] == 0x2E {
                i += 1
                var scale = 0.1
                let digitsStart = i
                while i < b.count, b[i] >= 0x30 && b[i] <= 0x39 {
                    fraction += Double(b[i] - 0x30) * scale
                    scale /= 10
                    i += 1
                }
                guard i > digitsStart else { return nil }
            }
            guard i < b.count else { return nil }
            if b[i] == 0x5A || b[i] == 0x7A {
                guard i + 1 == b.count else { return nil }
            } else if b[i] == 0x2B || b[i] == 0x2D {
                guard i + 6 == b.count, let oh = number((i + 1)..<(i + 3)), b[i + 3] == 0x3A, let om = number((i + 4)..<(i + 6)),
                      oh < 24, om < 60
                else { return nil }
                offset = (oh * 3600 + om * 60) * (b[i] == 0x2B ? 1 : -1)
            } else {
                return nil
            }
        }
        let days = CalendarDay.daysFromCivil(year: year, month: month, day: day)
        return Date(timeIntervalSince1970: Double(days * 86_400 + seconds - offset) + fraction)
    }


    private static func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

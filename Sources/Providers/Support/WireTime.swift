import Foundation
import Fuel

/// Fixed-format timestamp parsing by hand: no formatter per row, no locale, no time-zone database on the hot
/// path. Every function returns nil rather than guessing when the text does not match.
enum WireTime {
    static let secondsPerDay = 86_400

    static func days(year: Int, month: Int, day: Int) -> Int {
        CalendarDay.daysFromCivil(year: year, month: month, day: day)
    }

    static func civil(days: Int) -> (year: Int, month: Int, day: Int) {
        CalendarDay.civilFromDays(days)
    }

    /// `yyyy-MM-dd` for a day number. The year is zero-padded to four digits, so every day `days(isoDay:)`
    /// accepts (years 0000–9999) prints back in the same form.
    static func dayString(days: Int) -> String {
        let (y, m, d) = civil(days: days)
        let year = String(y)
        let padding = y >= 0 ? String(repeating: "0", count: max(0, 4 - year.count)) : ""
        return "\(padding)\(year)-\(m < 10 ? "0" : "")\(m)-\(d < 10 ? "0" : "")\(d)"
    }

    /// The day number of `yyyy-MM-dd` (surrounding whitespace allowed).
    static func days(isoDay text: String) -> Int? {
        scan(text.trimmingWhitespace()) { s in
            guard s.count == 10, let y = s.digits(0, 4), s[4] == dash, let m = s.digits(5, 2), s[7] == dash,
                  let d = s.digits(8, 2), isValid(year: y, month: m, day: d) else { return nil }
            return days(year: y, month: m, day: d)
        }
    }

    /// A zone-less wall time as seconds since the epoch, read as if it were UTC. Accepts
    /// `dd/MM/yyyy HH:mm:ss` (NSW official API) and `yyyy-MM-dd HH:mm:ss` / `yyyy-MM-ddTHH:mm:ss` (NSW app API),
    /// the latter with an optional fraction of up to 7 digits and an optional `Z` (QLD/SA, VIC).
    static func naiveSeconds(_ text: String) -> TimeInterval? {
        scan(text) { s in
            let y: Int, m: Int, d: Int
            if s.count >= 19, s[2] == slash, s[5] == slash {
                guard let dd = s.digits(0, 2), let mm = s.digits(3, 2), let yy = s.digits(6, 4) else { return nil }
                (y, m, d) = (yy, mm, dd)
            } else if s.count >= 19, s[4] == dash, s[7] == dash {
                guard let yy = s.digits(0, 4), let mm = s.digits(5, 2), let dd = s.digits(8, 2) else { return nil }
                (y, m, d) = (yy, mm, dd)
            } else {
                return nil
            }
            guard s[10] == space || s[10] == tee, let hh = s.digits(11, 2), s[13] == colon, let mi = s.digits(14, 2),
                  s[16] == colon, let ss = s.digits(17, 2), isValid(year: y, month: m, day: d), hh < 24, mi < 60, ss < 61
            else { return nil }
            var index = 19
            var fraction = 0.0
            if index < s.count, s[index] == dot {
                index += 1
                var scale = 0.1
                let start = index
                while index < s.count, let digit = s.digit(index) {
                    fraction += Double(digit) * scale
                    scale /= 10
                    index += 1
                }
                guard index > start, index - start <= 7 else { return nil }
            }
            if index < s.count, s[index] == zed { index += 1 }
            guard index == s.count else { return nil }
            let whole = days(year: y, month: m, day: d) * secondsPerDay + hh * 3600 + mi * 60 + ss
            return TimeInterval(whole) + fraction
        }
    }

    /// A zone-less wall time as a UTC instant.
    static func utcDate(_ text: String) -> Date? {
        naiveSeconds(text).map { Date(timeIntervalSince1970: $0) }
    }

    static func isValid(year: Int, month: Int, day: Int) -> Bool {
        guard (1...12).contains(month), day >= 1 else { return false }
        let leap = (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
        let lengths = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        return day <= lengths[month - 1]
    }

    // MARK: Byte scanning

    private static let dash = UInt8(ascii: "-"), slash = UInt8(ascii: "/"), colon = UInt8(ascii: ":")
    private static let space = UInt8(ascii: " "), tee = UInt8(ascii: "T"), dot = UInt8(ascii: "."), zed = UInt8(ascii: "Z")

    private static func scan<T>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> T?) -> T? {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }
}

private extension UnsafeBufferPointer<UInt8> {
    func digit(_ index: Int) -> Int? {
        let byte = self[index]
        return byte >= 0x30 && byte <= 0x39 ? Int(byte - 0x30) : nil
    }

    func digits(_ start: Int, _ length: Int) -> Int? {
        var value = 0
        for index in start..<(start + length) {
            guard let digit = digit(index) else { return nil }
            value = value * 10 + digit
        }
        return value
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// Formats IMF-fixdate (`Sun, 06 Nov 1994 08:49:37 GMT`) without Foundation, and caches it per second.
/// Not thread-safe: each event loop owns one.
struct HTTPDateCache {
    private var cachedSecond = -1
    private(set) var bytes: [UInt8] = []

    mutating func current() -> [UInt8] {
        let now = SystemCall.wallClockSeconds()
        if now != cachedSecond {
            cachedSecond = now
            bytes = HTTPDateCache.format(seconds: now)
        }
        return bytes
    }

    static let days: [String] = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    static let months: [String] = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    static func format(seconds: Int) -> [UInt8] {
        var t = time_t(seconds)
        var parts = tm()
        gmtime_r(&t, &parts)
        func two(_ n: Int32) -> String { n < 10 ? "0\(n)" : "\(n)" }
        let text = "\(days[Int(parts.tm_wday)]), \(two(parts.tm_mday)) \(months[Int(parts.tm_mon)]) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
        return Array(text.utf8)
    }

    /// Parses an HTTP-date back to seconds since 1970 (for `If-Modified-Since`); nil when malformed. Recipients
    /// must take all three forms (RFC 9110 §5.6.7): IMF-fixdate `Sun, 06 Nov 1994 08:49:37 GMT`, the obsolete RFC 850
    /// `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6 08:49:37 1994`.
    static func parse(_ text: String) -> Int? {
        let parts = text.split(separator: " ")
        let day: Int?, month: Int?, year: Int?, time: Substring
        switch parts.count {
        case 6 where parts[5] == "GMT":
            (day, month, year, time) = (Int(parts[1]), months.firstIndex(of: String(parts[2])), Int(parts[3]), parts[4])
        case 4 where parts[3] == "GMT":
            let date = parts[1].split(separator: "-")
            guard date.count == 3, date[2].count == 2, let twoDigits = Int(date[2]) else { return nil }
            // A two-digit year is the most recent past one with those digits, read here as 1970-2069.
            (day, month, year, time) = (Int(date[0]), months.firstIndex(of: String(date[1])), twoDigits + (twoDigits >= 70 ? 1900 : 2000), parts[2])
        case 5:
            (day, month, year, time) = (Int(parts[2]), months.firstIndex(of: String(parts[1])), Int(parts[4]), parts[3])
        default:
            return nil
        }
        // Four digits at most: a year beyond Int32 would trap converting it for timegm (a header anyone may send).
        guard let day, let month, let year, (1...31).contains(day), (1...9999).contains(year) else { return nil }
        let clock = time.split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3, (0...23).contains(clock[0]), (0...59).contains(clock[1]), (0...60).contains(clock[2]) else { return nil }
        var fields = tm()
        fields.tm_year = Int32(year - 1900)
        fields.tm_mon = Int32(month)
        fields.tm_mday = Int32(day)
        fields.tm_hour = Int32(clock[0])
        fields.tm_min = Int32(clock[1])
        fields.tm_sec = Int32(clock[2])
        return Int(timegm(&fields))
    }
}

public enum HTTPDate {
    /// IMF-fixdate for a Unix time, e.g. for `Last-Modified`.
    public static func string(fromUnixTime seconds: Int) -> String {
        String(decoding: HTTPDateCache.format(seconds: seconds), as: UTF8.self)
    }

    public static func unixTime(from string: String) -> Int? {
        HTTPDateCache.parse(string)
    }
}

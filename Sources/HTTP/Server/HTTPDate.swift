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

    /// Parses an IMF-fixdate back to seconds since 1970 (for `If-Modified-Since`); nil when malformed.
    static func parse(_ text: String) -> Int? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT",
              let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])), let year = Int(parts[3])
        else { return nil }
        let clock = parts[4].split(separator: ":").compactMap { Int($0) }
        guard clock.count == 3 else { return nil }
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

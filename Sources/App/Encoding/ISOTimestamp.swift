#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// `2026-01-14T22:51:45Z` without a formatter (used while rendering snapshots, thousands at a time).
enum ISOTimestamp {
    static func string(_ date: Date) -> String {
        var t = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&t, &parts)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))Z"
    }

    /// Accepts `2026-01-14T22:51:45Z`, fractional seconds, and `+hh:mm` offsets.
    static func parse(_ text: String) -> Date? {
        let withFraction = ISO8601DateFormatter()
        withFraction.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = withFraction.date(from: text) { return date }
        let plain = ISO8601DateFormatter()
        plain.formatOptions = [.withInternetDateTime]
        if let date = plain.date(from: text) { return date }
        let dateOnly = ISO8601DateFormatter()
        dateOnly.formatOptions = [.withFullDate]
        return dateOnly.date(from: text)
    }

    private static func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}

/// FNV-1a, 64 bit: cheap content hashes for ETags.
struct FNV1a {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    mutating func combine(_ bytes: [UInt8]) {
        for byte in bytes { combine(byte) }
    }

    mutating func combine(_ string: String) {
        for byte in string.utf8 { combine(byte) }
    }

    mutating func combine(_ byte: UInt8) {
        value = (value ^ UInt64(byte)) &* 0x100_0000_01b3
    }

    mutating func combine(_ number: UInt64) {
        var n = number
        for _ in 0..<8 {
            combine(UInt8(truncatingIfNeeded: n))
            n >>= 8
        }
    }

    /// `"1a2b..."` quoted, as an ETag value.
    var etag: String { "\"\(String(value, radix: 16))\"" }
}

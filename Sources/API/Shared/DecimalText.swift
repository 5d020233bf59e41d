/// Reads the numbers query parameters carry (`near=-33.8688,151.2093`, `radius_km=5`): the value `Double(_:)` gives
/// for the text with its spaces and tabs trimmed, to the bit.
///
/// A plain decimal (`[+-]digits[.digits]`, at most 2^53 once the point is dropped, at most 22 fraction digits) is
/// computed directly: its digits and 10^k are both exact doubles, so the one division is correctly rounded, as
/// `strtod` is (Clinger's fast path). Anything else (exponents, `inf`, hex, long digit runs) goes to `Double(_:)`.
enum DecimalText {
    static func double(_ text: Substring) -> Double? {
        text.utf8.withContiguousStorageIfAvailable(double) ?? Double(text.trimmedSpaces)
    }

    static func double(_ text: String) -> Double? { double(text[...]) }

    /// `double` of UTF-8 text in place: a point's two numbers are read without slicing its string.
    static func double(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        plain(bytes) ?? Double(String(decoding: bytes, as: UTF8.self).trimmedSpaces)
    }

    /// nil when the text is not a plain decimal (it may still be a number `Double(_:)` reads).
    private static func plain(_ bytes: UnsafeBufferPointer<UInt8>) -> Double? {
        var start = 0, end = bytes.count
        while start < end, bytes[start].isSpaceOrTab { start += 1 }
        while end > start, bytes[end - 1].isSpaceOrTab { end -= 1 }
        var index = start
        var negative = false
        if index < end, bytes[index] == 0x2D || bytes[index] == 0x2B {
            negative = bytes[index] == 0x2D
            index += 1
        }
        var digits: UInt64 = 0
        var wholeDigits = 0, fractionDigits = 0
        var seenPoint = false
        while index < end {
            let byte = bytes[index]
            if byte == 0x2E {
                guard !seenPoint else { return nil }
                seenPoint = true
            } else {
                let digit = byte &- 0x30
                guard digit < 10, digits < Self.limit else { return nil }
                digits = digits * 10 + UInt64(digit)
                if seenPoint { fractionDigits += 1 } else { wholeDigits += 1 }
            }
            index += 1
        }
        // `5.`, `.5` and `-` are left to `Double(_:)`, which decides what they mean.
        guard wholeDigits > 0, !seenPoint || fractionDigits > 0, digits <= Self.exactLimit, fractionDigits < Self.powersOfTen.count
        else { return nil }
        let magnitude = Double(digits) / Self.powersOfTen[fractionDigits]
        return negative ? -magnitude : magnitude
    }

    /// Beyond this, one more digit could overflow `UInt64`; such a value is past `exactLimit` anyway.
    private static let limit: UInt64 = 1 << 59
    /// The largest integer from which every smaller one is an exact `Double`.
    private static let exactLimit: UInt64 = 1 << 53
    /// 10^0 ... 10^22: every one an exact `Double`.
    private static let powersOfTen: [Double] = (0...22).map { power in (0..<power).reduce(1.0) { value, _ in value * 10 } }
}

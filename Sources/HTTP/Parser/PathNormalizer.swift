/// Turns a raw request path into decoded segments, once, at parse time.
///
/// - Splits on `/` first, then percent-decodes each segment, so `%2F` stays inside its segment.
/// - Rejects bad escapes, decoded bytes that are not UTF-8 (e.g. overlong `%C0%AE`) and decoded NUL: 400.
/// - Removes `.` and `..` on the decoded segments (RFC 3986 §5.2.4), so `%2e%2e` is a dot-segment too;
///   `..` at the root stays at the root. Empty segments (`//`) are dropped first, like nginx's merge_slashes.
/// - A decoded `\` is kept as a character; the static file layer refuses it.
enum PathNormalizer {
    typealias Result = (segments: [String], hasTrailingSlash: Bool)

    /// Normalises `range` of `buffer`, which starts with `/`.
    static func normalize(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(HTTPParseError) -> Result {
        var segments: [String] = []
        // True when the output path ends in `/`: after an empty segment or a dot-segment (§5.2.4 keeps the slash).
        var endsInSlash = false
        var segmentStart = range.lowerBound + 1
        var hasPercent = false
        var index = segmentStart
        while index <= range.upperBound {
            guard index == range.upperBound || buffer[index] == ASCII.slash else {
                if buffer[index] == ASCII.percent { hasPercent = true }
                index += 1
                continue
            }
            let segment = segmentStart..<index
            segmentStart = index + 1
            index += 1
            if segment.isEmpty {
                endsInSlash = true
                continue
            }
            if segments.capacity == 0 { segments.reserveCapacity(4) }
            if hasPercent {
                hasPercent = false
                let decoded = try percentDecoded(buffer, segment)
                try decoded.withUnsafeBufferPointer { (bytes) throws(HTTPParseError) in
                    try apply(bytes, 0..<bytes.count, to: &segments, endsInSlash: &endsInSlash)
                }
            } else {
                // Target bytes are visible ASCII (checked by the request line), so already valid UTF-8.
                try apply(buffer, segment, to: &segments, endsInSlash: &endsInSlash)
            }
        }
        return (segments, endsInSlash && !segments.isEmpty)
    }

    /// RFC 3986 §5.2.4 for one decoded segment: `.` is dropped, `..` drops the previous segment (never above root).
    private static func apply(
        _ bytes: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, to segments: inout [String], endsInSlash: inout Bool
    ) throws(HTTPParseError) {
        let dots = range.count <= 2 && range.allSatisfy { bytes[$0] == ASCII.dot } ? range.count : 0
        switch dots {
        case 1:
            endsInSlash = true
        case 2:
            if !segments.isEmpty { segments.removeLast() }
            endsInSlash = true
        default:
            segments.append(bytes.string(range))
            endsInSlash = false
        }
    }

    /// Normalises a path given as a String (tests, tools). Same rules as the parser's path.
    static func normalize(_ path: String) throws(HTTPParseError) -> Result {
        var path = path
        let result = path.withUTF8 { bytes in
            Swift.Result { () throws(HTTPParseError) -> Result in
                guard bytes.first == ASCII.slash else { throw HTTPParseError(.badRequest, "path must start with /") }
                return try normalize(bytes, 0..<bytes.count)
            }
        }
        return try result.get()
    }

    /// RFC 3986 §2.1: `%` HEXDIG HEXDIG; the result must be UTF-8 and contain no NUL.
    private static func percentDecoded(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(HTTPParseError) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(range.count)
        var index = range.lowerBound
        while index < range.upperBound {
            var byte = buffer[index]
            if byte == ASCII.percent {
                guard let escaped = buffer.percentEscape(at: index, before: range.upperBound) else {
                    throw HTTPParseError(.badRequest, "invalid percent-encoding in path")
                }
                byte = escaped
                if byte == 0 { throw HTTPParseError(.badRequest, "NUL in path") }
                index += 3
            } else {
                index += 1
            }
            bytes.append(byte)
        }
        // Decoding replaces invalid sequences with U+FFFD, so the bytes round-trip only when they were UTF-8.
        guard String(decoding: bytes, as: UTF8.self).utf8.elementsEqual(bytes) else {
            throw HTTPParseError(.badRequest, "path is not valid UTF-8")
        }
        return bytes
    }
}

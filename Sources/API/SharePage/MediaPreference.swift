import HTTP

/// Which representation of a share link a client asked for, from `Accept` (RFC 9110 §12.5.1).
///
/// Each of `application/json` and `text/html` takes the q-value of the most specific range that matches it
/// (`type/subtype` over `type/*` over `*/*`). JSON wins when its q is higher, or when the q-values tie and
/// JSON was named more specifically (`application/json, */*` from API clients). Everything else is HTML:
/// no `Accept`, `*/*` alone, and browsers' `text/html,...,*/*;q=0.8`.
///
/// Parsed in one pass over the bytes, without allocating: it runs on every share page request.
enum MediaPreference: Equatable {
    case html
    case json

    init(accept values: [String]) {
        var json = Match()
        var html = Match()
        for var value in values {
            value.withUTF8 { Self.scan($0, json: &json, html: &html) }
        }
        if json.quality > html.quality || (json.quality == html.quality && json.quality > 0 && json.specificity > html.specificity) {
            self = .json
        } else {
            self = .html
        }
    }

    init(_ request: Request) {
        self.init(accept: request.headers["Accept"])
    }

    /// The best match so far for one media type: q in thousandths, and how specific the matching range was.
    private struct Match {
        var quality = 0
        var specificity = -1

        /// The most specific range decides, whatever its q; among equally specific ones, the best q.
        mutating func consider(specificity: Int, quality: Int) {
            if specificity > self.specificity {
                self.specificity = specificity
                self.quality = quality
            } else if specificity == self.specificity {
                self.quality = max(self.quality, quality)
            }
        }
    }

    private static func scan(_ bytes: UnsafeBufferPointer<UInt8>, json: inout Match, html: inout Match) {
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != UInt8(ascii: ",") { end += 1 }
            element(bytes, start, end, json: &json, html: &html)
            start = end + 1
        }
    }

    /// One `type/subtype;param=value;q=0.5` element in `bytes[start..<end]`.
    private static func element(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, json: inout Match, html: inout Match) {
        var mediaEnd = start
        while mediaEnd < end && bytes[mediaEnd] != UInt8(ascii: ";") { mediaEnd += 1 }
        let (typeStart, typeEnd) = trimmed(bytes, start, mediaEnd)
        var slash = typeStart
        while slash < typeEnd && bytes[slash] != UInt8(ascii: "/") { slash += 1 }
        guard slash > typeStart, slash < typeEnd - 1 else { return }

        var quality = 1000
        var cursor = mediaEnd
        while cursor < end {
            var next = cursor + 1
            while next < end && bytes[next] != UInt8(ascii: ";") { next += 1 }
            let (s, e) = trimmed(bytes, cursor + 1, next)
            if e - s >= 2, bytes[s] | 0x20 == UInt8(ascii: "q"), bytes[s + 1] == UInt8(ascii: "=") {
                guard let q = qvalue(bytes, s + 2, e) else { return }
                quality = q
            }
            cursor = next
        }

        let type = (typeStart, slash), subtype = (slash + 1, typeEnd)
        if equals(bytes, type, "*") {
            guard equals(bytes, subtype, "*") else { return }
            json.consider(specificity: 0, quality: quality)
            html.consider(specificity: 0, quality: quality)
        } else if equals(bytes, type, "application") {
            if equals(bytes, subtype, "*") { json.consider(specificity: 1, quality: quality) }
            else if equals(bytes, subtype, "json") { json.consider(specificity: 2, quality: quality) }
        } else if equals(bytes, type, "text") {
            if equals(bytes, subtype, "*") { html.consider(specificity: 1, quality: quality) }
            else if equals(bytes, subtype, "html") { html.consider(specificity: 2, quality: quality) }
        }
    }

    /// `qvalue = ( "0" [ "." 0*3DIGIT ] ) / ( "1" [ "." 0*3("0") ] )`, in thousandths.
    private static func qvalue(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Int? {
        guard start < end, bytes[start] == UInt8(ascii: "0") || bytes[start] == UInt8(ascii: "1") else { return nil }
        var value = Int(bytes[start] - 48) * 1000
        guard end - start > 1 else { return value }
        guard bytes[start + 1] == UInt8(ascii: "."), end - start <= 5 else { return nil }
        var scale = 100
        for index in (start + 2)..<end {
            let digit = bytes[index]
            guard digit >= 48, digit <= 57 else { return nil }
            value += Int(digit - 48) * scale
            scale /= 10
        }
        return value <= 1000 ? value : nil
    }

    private static func trimmed(_ bytes: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> (Int, Int) {
        var s = start, e = end
        while s < e && (bytes[s] == 0x20 || bytes[s] == 0x09) { s += 1 }
        while e > s && (bytes[e - 1] == 0x20 || bytes[e - 1] == 0x09) { e -= 1 }
        return (s, e)
    }

    /// ASCII case-insensitive comparison with a lowercase literal.
    private static func equals(_ bytes: UnsafeBufferPointer<UInt8>, _ range: (Int, Int), _ literal: StaticString) -> Bool {
        guard range.1 - range.0 == literal.utf8CodeUnitCount else { return false }
        let expected = literal.utf8Start
        for offset in 0..<literal.utf8CodeUnitCount {
            var byte = bytes[range.0 + offset]
            if byte >= 65 && byte <= 90 { byte |= 0x20 }
            if byte != expected[offset] { return false }
        }
        return true
    }
}

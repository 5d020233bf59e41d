/// The four request-target forms (RFC 9112 §3.2), reduced to the path and query ranges we route on.
struct RequestTarget {
    /// The raw path (starts with `/`); nil for `*`, authority-form and an absolute-form without a path.
    var path: Range<Int>?
    var query: Range<Int>?

    init(_ buffer: UnsafeBufferPointer<UInt8>, _ target: Range<Int>, method: HTTPMethod) throws(HTTPParseError) {
        let first = buffer[target.lowerBound]
        if method == .CONNECT {
            // §3.2.3: CONNECT takes authority-form only: host ":" port.
            try Self.checkAuthority(buffer, target, requirePort: true)
            return
        }
        if first == ASCII.slash {
            // §3.2.1 origin-form: absolute-path [ "?" query ].
            (path, query) = Self.pathAndQuery(buffer, target)
        } else if first == ASCII.asterisk {
            // §3.2.4 asterisk-form: only `*`, only for OPTIONS.
            guard target.count == 1, method == .OPTIONS else {
                throw HTTPParseError(.badRequest, "asterisk-form target is only valid for OPTIONS")
            }
        } else if let authorityStart = Self.schemeEnd(buffer, target) {
            // §3.2.2 absolute-form: route on its path and query (the Host header is still required for 1.1).
            var index = authorityStart
            while index < target.upperBound, buffer[index] != ASCII.slash, buffer[index] != ASCII.question {
                index += 1
            }
            try Self.checkAuthority(buffer, authorityStart..<index, requirePort: false)
            (path, query) = Self.pathAndQuery(buffer, index..<target.upperBound)
        } else {
            throw HTTPParseError(.badRequest, "invalid request target")
        }
    }

    /// Splits `[ absolute-path ] [ "?" query ]` at the first `?`.
    private static func pathAndQuery(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>
    ) -> (path: Range<Int>?, query: Range<Int>?) {
        var index = range.lowerBound
        while index < range.upperBound, buffer[index] != ASCII.question { index += 1 }
        return (index > range.lowerBound ? range.lowerBound..<index : nil,
                index < range.upperBound ? index + 1..<range.upperBound : nil)
    }

    /// Where the authority starts when the target begins with `http://` or `https://` (scheme is case-insensitive).
    private static func schemeEnd(_ buffer: UnsafeBufferPointer<UInt8>, _ target: Range<Int>) -> Int? {
        let start = target.lowerBound
        for length in 4...5 {
            let end = start + length
            guard end + 3 <= target.upperBound, buffer.hasBytes(at: end, "://") else { continue }
            let scheme = start..<end
            if length == 4 ? buffer.equalsToken(scheme, "http") : buffer.equalsToken(scheme, "https") {
                return end + 3
            }
        }
        return nil
    }

    /// A non-empty authority without userinfo (RFC 9110 §4.2.4); with `requirePort`, ends in `:` DIGITs.
    private static func checkAuthority(
        _ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>, requirePort: Bool
    ) throws(HTTPParseError) {
        guard !range.isEmpty else { throw HTTPParseError(.badRequest, "empty authority in request target") }
        var colon: Int?
        for index in range {
            switch buffer[index] {
            case ASCII.at: throw HTTPParseError(.badRequest, "userinfo in request target")
            case ASCII.slash, ASCII.question:
                throw HTTPParseError(.badRequest, "invalid authority-form target")
            case ASCII.colon: colon = index
            default: break
            }
        }
        guard requirePort else { return }
        guard let colon, colon > range.lowerBound, colon + 1 < range.upperBound,
              (colon + 1..<range.upperBound).allSatisfy({ ASCII.digitValue(buffer[$0]) != nil })
        else { throw HTTPParseError(.badRequest, "invalid authority-form target") }
    }
}

/// The Host field value (RFC 9110 §7.2, RFC 9112 §3.2): `uri-host [ ":" port ]` in RFC 3986 §3.2.2 syntax,
/// where uri-host is an IP-literal in brackets or a reg-name (which also covers IPv4address), and port is
/// `*DIGIT`. An empty value stays valid (§7.2 allows it when the target has no authority).
enum HostSyntax {
    static func isValid(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        let end = range.upperBound
        var index = range.lowerBound
        if index < end, buffer[index] == ASCII.leftBracket {
            var close = index + 1
            while close < end, buffer[close] != ASCII.rightBracket { close += 1 }
            guard close < end, isIPLiteral(buffer, index + 1..<close) else { return false }
            index = close + 1
        } else {
            // reg-name = *( unreserved / pct-encoded / sub-delims )
            while index < end, buffer[index] != ASCII.colon {
                if buffer[index] == ASCII.percent {
                    guard index + 2 < end, ASCII.hexValue(buffer[index + 1]) != nil,
                          ASCII.hexValue(buffer[index + 2]) != nil
                    else { return false }
                    index += 3
                    continue
                }
                guard isUnreserved(buffer[index]) || isSubDelim(buffer[index]) else { return false }
                index += 1
            }
        }
        guard index < end else { return true }
        guard buffer[index] == ASCII.colon else { return false }
        return (index + 1..<end).allSatisfy { ASCII.digitValue(buffer[$0]) != nil }
    }

    /// `IPv6address / IPvFuture` between the brackets. IPv6 is checked for its alphabet (HEXDIG, `:`, `.`)
    /// and at least one `:`, not its full grammar: enough to keep the value from carrying anything else.
    private static func isIPLiteral(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> Bool {
        guard !range.isEmpty else { return false }
        if buffer[range.lowerBound] | 0x20 == UInt8(ascii: "v") {
            // IPvFuture = "v" 1*HEXDIG "." 1*( unreserved / sub-delims / ":" )
            var index = range.lowerBound + 1
            while index < range.upperBound, ASCII.hexValue(buffer[index]) != nil { index += 1 }
            guard index > range.lowerBound + 1, index < range.upperBound, buffer[index] == ASCII.dot,
                  index + 1 < range.upperBound
            else { return false }
            return (index + 1..<range.upperBound).allSatisfy {
                let byte = buffer[$0]
                return isUnreserved(byte) || isSubDelim(byte) || byte == ASCII.colon
            }
        }
        var colons = 0
        for index in range {
            let byte = buffer[index]
            if byte == ASCII.colon { colons += 1; continue }
            guard byte == ASCII.dot || ASCII.hexValue(byte) != nil else { return false }
        }
        return colons > 0
    }

    /// unreserved = ALPHA / DIGIT / "-" / "." / "_" / "~"
    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }

    /// sub-delims = "!" / "$" / "&" / "'" / "(" / ")" / "*" / "+" / "," / ";" / "="
    private static func isSubDelim(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("),
             UInt8(ascii: ")"), UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"),
             UInt8(ascii: "="):
            true
        default:
            false
        }
    }
}

/// Byte constants and the character classes the parser checks (RFC 9110 §5.6.2, RFC 9112 §2, §5).
/// Pure arithmetic: no tables to load, no allocation.
enum ASCII {
    static let htab: UInt8 = 0x09
    static let lf: UInt8 = 0x0A
    static let cr: UInt8 = 0x0D
    static let space: UInt8 = 0x20
    static let quote: UInt8 = 0x22
    static let hash: UInt8 = 0x23
    static let percent: UInt8 = 0x25
    static let ampersand: UInt8 = 0x26
    static let asterisk: UInt8 = 0x2A
    static let plus: UInt8 = 0x2B
    static let comma: UInt8 = 0x2C
    static let dot: UInt8 = 0x2E
    static let slash: UInt8 = 0x2F
    static let colon: UInt8 = 0x3A
    static let semicolon: UInt8 = 0x3B
    static let equals: UInt8 = 0x3D
    static let question: UInt8 = 0x3F
    static let at: UInt8 = 0x40
    static let leftBracket: UInt8 = 0x5B
    static let backslash: UInt8 = 0x5C
    static let rightBracket: UInt8 = 0x5D
    static let del: UInt8 = 0x7F

    /// tchar (RFC 9110 §5.6.2): `!#$%&'*+-.^_`|~`, DIGIT, ALPHA. Bit n of the low mask is byte n (0...63),
    /// of the high mask byte n + 64 (64...127). `ASCIITests` checks these against the spelled-out set.
    private static let tcharLow: UInt64 = 0x03FF_6CFA_0000_0000
    private static let tcharHigh: UInt64 = 0x57FF_FFFF_C7FF_FFFE

    @inline(__always)
    static func isTchar(_ byte: UInt8) -> Bool {
        if byte < 64 { return (tcharLow >> UInt64(byte)) & 1 == 1 }
        if byte < 128 { return (tcharHigh >> UInt64(byte &- 64)) & 1 == 1 }
        return false
    }

    /// VCHAR (0x21-0x7E): what a request target may contain on the wire.
    @inline(__always)
    static func isVisible(_ byte: UInt8) -> Bool { byte &- 0x21 < 0x5E }

    /// field-vchar / obs-text / SP / HTAB (RFC 9110 §5.5): no control characters, no DEL.
    @inline(__always)
    static func isFieldValueByte(_ byte: UInt8) -> Bool {
        (byte >= 0x20 && byte != del) || byte == htab
    }

    @inline(__always)
    static func isWhitespace(_ byte: UInt8) -> Bool { byte == space || byte == htab }

    @inline(__always)
    static func digitValue(_ byte: UInt8) -> Int? {
        let value = byte &- 0x30
        return value < 10 ? Int(value) : nil
    }

    @inline(__always)
    static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case 0x30...0x39: Int(byte &- 0x30)
        case 0x41...0x46: Int(byte &- 0x41 &+ 10)
        case 0x61...0x66: Int(byte &- 0x61 &+ 10)
        default: nil
        }
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// The bytes in `range` as a String (UTF-8; invalid sequences become U+FFFD).
    @inline(__always)
    func string(_ range: Range<Int>) -> String {
        String(decoding: UnsafeBufferPointer(rebasing: self[range]), as: UTF8.self)
    }

    /// The byte a `%` HEXDIG HEXDIG escape at `index` stands for (RFC 3986 §2.1), or nil when there is none that ends
    /// before `end`.
    @inline(__always)
    func percentEscape(at index: Int, before end: Int) -> UInt8? {
        guard self[index] == ASCII.percent, index + 2 < end,
              let high = ASCII.hexValue(self[index + 1]), let low = ASCII.hexValue(self[index + 2])
        else { return nil }
        return UInt8(high << 4 | low)
    }

    /// True when the bytes in `range` equal `lowercase` ignoring ASCII case.
    /// `lowercase` must be lowercase letters and `-`. Only CR (0x0D | 0x20 == `-`) could alias, and callers never pass CR.
    @inline(__always)
    func equalsToken(_ range: Range<Int>, _ lowercase: StaticString) -> Bool {
        guard range.count == lowercase.utf8CodeUnitCount else { return false }
        let literal = lowercase.utf8Start
        var offset = 0
        for index in range {
            if self[index] | 0x20 != literal[offset] { return false }
            offset += 1
        }
        return true
    }

    /// True when the bytes starting at `index` are exactly `literal` (case-sensitive).
    @inline(__always)
    func hasBytes(at index: Int, _ literal: StaticString) -> Bool {
        let length = literal.utf8CodeUnitCount
        guard count - index >= length else { return false }
        let bytes = literal.utf8Start
        for offset in 0..<length where self[index + offset] != bytes[offset] { return false }
        return true
    }
}

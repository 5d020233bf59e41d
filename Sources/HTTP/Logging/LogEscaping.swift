/// Log text is written with its control characters escaped, so a request path or a provider's string cannot
/// forge a line (`\n`), rewrite one (`\r`) or drive the terminal reading the log (`\u{1b}[2J`).
///
/// Escaped: C0 controls and DEL (`\n`, `\r`, `\t`, otherwise `\x1b`), C1 controls U+0080-U+009F (`\u{85}`,
/// `\u{9b}`: NEL and CSI among them) and the separators U+2028/U+2029 (`\u{2028}`). Everything else,
/// including other non-ASCII text, is written as is.
enum LogEscaping {
    /// `text`, unchanged and uncopied when it holds nothing to escape (the common case).
    static func escaped(_ text: String) -> String {
        var text = text
        let rewritten = text.withUTF8 { bytes -> String? in
            var index = 0
            while index < bytes.count, escapeWidth(bytes, at: index) == 0 { index += 1 }
            guard index < bytes.count else { return nil }
            return rewrite(bytes, from: index)
        }
        return rewritten ?? text
    }

    /// Copies `bytes`, escaping from `first` (the first byte that needs it) on.
    private static func rewrite(_ bytes: UnsafeBufferPointer<UInt8>, from first: Int) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[..<first]))
        var index = first
        while index < bytes.count {
            let width = escapeWidth(bytes, at: index)
            if width == 0 {
                out.append(bytes[index])
                index += 1
                continue
            }
            appendEscape(of: bytes, at: index, width: width, to: &out)
            index += width
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// How many UTF-8 bytes the character at `index` spans if it must be escaped, else 0.
    @inline(__always)
    private static func escapeWidth(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Int {
        let byte = bytes[index]
        if byte >= 0x20 && byte < 0x7F { return 0 }
        if byte < 0x20 || byte == 0x7F { return 1 }
        // C1: U+0080-U+009F is C2 80-C2 9F.
        if byte == 0xC2, index + 1 < bytes.count, bytes[index + 1] & 0xE0 == 0x80 { return 2 }
        // U+2028, U+2029: E2 80 A8, E2 80 A9.
        if byte == 0xE2, index + 2 < bytes.count, bytes[index + 1] == 0x80, bytes[index + 2] & 0xFE == 0xA8 { return 3 }
        return 0
    }

    private static func appendEscape(of bytes: UnsafeBufferPointer<UInt8>, at index: Int, width: Int, to out: inout [UInt8]) {
        let byte = bytes[index]
        switch width {
        case 1:
            switch byte {
            case 0x0A: out.append(contentsOf: #"\n"#.utf8)
            case 0x0D: out.append(contentsOf: #"\r"#.utf8)
            case 0x09: out.append(contentsOf: #"\t"#.utf8)
            default:
                out.append(contentsOf: #"\x"#.utf8)
                appendHex(byte, to: &out)
            }
        case 2:
            out.append(contentsOf: #"\u{"#.utf8)
            appendHex(bytes[index + 1], to: &out)
            out.append(UInt8(ascii: "}"))
        default:
            out.append(contentsOf: (bytes[index + 2] == 0xA8 ? #"\u{2028}"# : #"\u{2029}"#).utf8)
        }
    }

    private static func appendHex(_ byte: UInt8, to out: inout [UInt8]) {
        let digits: StaticString = "0123456789abcdef"
        out.append(digits.utf8Start[Int(byte >> 4)])
        out.append(digits.utf8Start[Int(byte & 0x0F)])
    }
}

/// Chunk extensions (RFC 9112 §7.1.1): `*( BWS ";" BWS chunk-ext-name [ BWS "=" BWS chunk-ext-val ] )`,
/// a name being a token and a value a token or a quoted-string. We ignore them, but only once they parse:
/// a `;` with no name (`5;`) is exactly the kind of line two parsers disagree on, so it is a framing error.
extension HTTPRequestParser {
    /// Scans the extensions starting at `start` (just past the chunk size). Returns the index of the CR that
    /// should end the line, or `buffer.count` while the line is still arriving; throws on a byte that breaks
    /// the grammar.
    static func scanChunkExtensions(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws(HTTPParseError) -> Int {
        let count = buffer.count
        var index = start
        while true {
            let elementStart = index
            while index < count, ASCII.isWhitespace(buffer[index]) { index += 1 }
            guard index < count else { return count }
            // Whitespace is only allowed before a `;`, so a line may end here only if none was skipped.
            if buffer[index] == ASCII.cr, index == elementStart { return index }
            guard buffer[index] == ASCII.semicolon else { throw HTTPParseError(.badRequest, "invalid chunk extension") }
            index += 1
            while index < count, ASCII.isWhitespace(buffer[index]) { index += 1 }

            let nameStart = index
            while index < count, ASCII.isTchar(buffer[index]) { index += 1 }
            guard index < count else { return count }
            guard index > nameStart else { throw HTTPParseError(.badRequest, "chunk extension without a name") }

            let nameEnd = index
            while index < count, ASCII.isWhitespace(buffer[index]) { index += 1 }
            guard index < count else { return count }
            guard buffer[index] == ASCII.equals else {
                index = nameEnd
                continue
            }
            index += 1
            while index < count, ASCII.isWhitespace(buffer[index]) { index += 1 }
            guard index < count else { return count }
            if buffer[index] == ASCII.quote {
                guard let end = try scanQuotedString(buffer, from: index) else { return count }
                index = end
            } else {
                let valueStart = index
                while index < count, ASCII.isTchar(buffer[index]) { index += 1 }
                guard index < count else { return count }
                guard index > valueStart else { throw HTTPParseError(.badRequest, "chunk extension without a value") }
            }
        }
    }

    /// `DQUOTE *( qdtext / quoted-pair ) DQUOTE` (RFC 9110 §5.6.4) from the opening quote at `start`;
    /// returns the index past the closing quote, or nil while it is still arriving.
    static func scanQuotedString(_ buffer: UnsafeBufferPointer<UInt8>, from start: Int) throws(HTTPParseError) -> Int? {
        var index = start + 1
        while index < buffer.count {
            let byte = buffer[index]
            if byte == ASCII.quote { return index + 1 }
            if byte == ASCII.backslash {
                guard index + 1 < buffer.count else { return nil }
                guard ASCII.isFieldValueByte(buffer[index + 1]) else {
                    throw HTTPParseError(.badRequest, "invalid quoted-pair in chunk extension")
                }
                index += 2
                continue
            }
            guard ASCII.isFieldValueByte(byte) else { throw HTTPParseError(.badRequest, "invalid character in chunk extension") }
            index += 1
        }
        return nil
    }
}

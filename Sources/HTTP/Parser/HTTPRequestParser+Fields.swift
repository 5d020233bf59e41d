/// The field section: `*( field-line CRLF ) CRLF` (RFC 9112 §5), used for headers and for chunked trailers.
extension HTTPRequestParser {
    struct FieldSection {
        /// Index just past the empty line that ends the section.
        var end: Int
        /// The fields in arrival order (headers only; trailers are validated, then discarded).
        var fields: [(String, String)]
        var framing: FramingFields
    }

    /// How far a field section's scan got: the section so far and where in which line it stopped.
    struct FieldScan {
        enum Position {
            case lineStart
            case name(nameStart: Int)
            case value(nameStart: Int, nameEnd: Int, valueStart: Int)
        }

        /// Where the section starts (its size limit counts from here).
        var start: Int
        var index: Int
        var position = Position.lineStart
        var fieldCount = 0
        var section: FieldSection

        init(start: Int) {
            self.start = start
            index = start
            section = FieldSection(end: start, fields: [], framing: FramingFields())
        }
    }

    /// Scans one field section starting at `start`; nil until its empty line has arrived.
    func scanFieldSection(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, isTrailer: Bool
    ) throws(HTTPParseError) -> FieldSection? {
        var scan = FieldScan(start: start)
        var progress = HTTPParseProgress()
        return try scanFieldSection(buffer, &scan, isTrailer: isTrailer, &progress)
    }

    /// Continues scanning a field section from where `scan` stopped; nil until its empty line has arrived.
    ///
    /// Limits are checked as bytes arrive: more than `maxHeaderCount` fields or a field byte beyond
    /// `maxHeaderBytes` (all field lines with their line ends) is 431 at once, so a header without
    /// an end is never buffered past the limit. Every line ends in CRLF. Trailers (`isTrailer`) follow §7.1.2:
    /// same grammar and limits, no Strings built, framing fields ignored.
    func scanFieldSection(
        _ buffer: UnsafeBufferPointer<UInt8>, _ scan: inout FieldScan, isTrailer: Bool,
        _ progress: inout HTTPParseProgress
    ) throws(HTTPParseError) -> FieldSection? {
        let count = buffer.count
        let start = scan.start
        // Field-line bytes may only occupy start..<scanEnd; `limited` says the limit, not the data, ends it.
        let limited = count - start >= limits.maxHeaderBytes
        let scanEnd = limited ? start + limits.maxHeaderBytes : count

        if !isTrailer, scan.section.fields.isEmpty { scan.section.fields.reserveCapacity(16) }
        var index = scan.index
        defer { scan.index = index }
        while true {
            var nameStart: Int, nameEnd: Int, valueStart: Int
            switch scan.position {
            case .lineStart:
                guard index < count else { return nil }
                progress.noteExamined()
                if buffer[index] == ASCII.cr {
                    guard index + 1 < count else { return nil }
                    guard buffer[index + 1] == ASCII.lf else { throw HTTPParseError(.badRequest, "bare CR") }
                    scan.section.end = index + 2
                    return scan.section
                }
                try checkFieldLineStart(buffer[index], fieldCount: scan.fieldCount, isTrailer: isTrailer)
                // index < count here, so only the limit can end the scan.
                if index >= scanEnd { throw Self.tooLarge }
                nameStart = index
                scan.position = .name(nameStart: nameStart)
                fallthrough
            case .name:
                guard case .name(let start) = scan.position else { preconditionFailure() }
                nameStart = start
                // field-name = token, then ":" with no whitespace before it (§5.1).
                while index < scanEnd, ASCII.isTchar(buffer[index]) {
                    progress.noteExamined()
                    index += 1
                }
                guard index < scanEnd else { if limited { throw Self.tooLarge } else { return nil } }
                nameEnd = index
                guard buffer[index] == ASCII.colon else { throw Self.notAColon(buffer[index]) }
                guard nameEnd > nameStart else { throw HTTPParseError(.badRequest, "empty field name") }
                index += 1
                valueStart = index
                scan.position = .value(nameStart: nameStart, nameEnd: nameEnd, valueStart: valueStart)
                fallthrough
            case .value:
                guard case .value(let savedName, let savedNameEnd, let savedValue) = scan.position else {
                    preconditionFailure()
                }
                (nameStart, nameEnd, valueStart) = (savedName, savedNameEnd, savedValue)
                // field-value: no CTLs but HTAB, no DEL (RFC 9110 §5.5); then CRLF.
                while index < scanEnd, ASCII.isFieldValueByte(buffer[index]) {
                    progress.noteExamined()
                    index += 1
                }
                guard index < scanEnd else { if limited { throw Self.tooLarge } else { return nil } }
                let lineEnd = index
                guard let next = try Self.pastLineEnd(buffer, at: index, scanEnd: scanEnd, limited: limited, isTrailer: isTrailer)
                else { return nil }
                index = next
                scan.position = .lineStart
                scan.fieldCount += 1
                if isTrailer { continue }
                try appendField(buffer, name: nameStart..<nameEnd, value: valueStart..<lineEnd, to: &scan.section)
            }
        }
    }

    private static var tooLarge: HTTPParseError { HTTPParseError(.requestHeaderFieldsTooLarge, "header section too large") }

    private static func bareLF(isTrailer: Bool) -> HTTPParseError {
        HTTPParseError(.badRequest, isTrailer ? "bare LF in trailer section" : "bare LF in header section")
    }

    /// Refuses a field line by its first byte (not CR: that ends the section), or the field past `maxHeaderCount`.
    @inline(__always)
    private func checkFieldLineStart(_ first: UInt8, fieldCount: Int, isTrailer: Bool) throws(HTTPParseError) {
        // §2.2 lets a recipient take a bare LF as a line end only where that cannot be read two ways;
        // behind a proxy that does not (`Dummy: x\nContent-Length: 23`) it can, so the head is CRLF only.
        if first == ASCII.lf { throw Self.bareLF(isTrailer: isTrailer) }
        // §5.2: obs-fold (a line starting with whitespace) must be rejected outside message/http.
        if ASCII.isWhitespace(first) { throw HTTPParseError(.badRequest, "obsolete line folding") }
        if fieldCount == limits.maxHeaderCount {
            throw HTTPParseError(.requestHeaderFieldsTooLarge, "too many header fields")
        }
    }

    /// Why a field name ended at `byte` instead of at its colon.
    private static func notAColon(_ byte: UInt8) -> HTTPParseError {
        if ASCII.isWhitespace(byte) { return HTTPParseError(.badRequest, "whitespace between field name and colon") }
        if byte == ASCII.cr || byte == ASCII.lf { return HTTPParseError(.badRequest, "field line without colon") }
        return HTTPParseError(.badRequest, "invalid character in field name")
    }

    /// Where the line ending at `index` (just past its value) continues: past its CRLF; nil until the LF arrives.
    @inline(__always)
    private static func pastLineEnd(
        _ buffer: UnsafeBufferPointer<UInt8>, at index: Int, scanEnd: Int, limited: Bool, isTrailer: Bool
    ) throws(HTTPParseError) -> Int? {
        switch buffer[index] {
        case ASCII.cr:
            guard index + 1 < scanEnd else { if limited { throw tooLarge } else { return nil } }
            guard buffer[index + 1] == ASCII.lf else { throw HTTPParseError(.badRequest, "bare CR") }
            return index + 2
        case ASCII.lf:
            throw bareLF(isTrailer: isTrailer)
        default:
            throw HTTPParseError(.badRequest, "invalid character in field value")
        }
    }

    /// A header field, its value without the OWS around it (§5.1), noted for framing and kept.
    @inline(__always)
    private func appendField(
        _ buffer: UnsafeBufferPointer<UInt8>, name: Range<Int>, value: Range<Int>, to section: inout FieldSection
    ) throws(HTTPParseError) {
        var trimmedStart = value.lowerBound, trimmedEnd = value.upperBound
        while trimmedStart < trimmedEnd, ASCII.isWhitespace(buffer[trimmedStart]) { trimmedStart += 1 }
        while trimmedEnd > trimmedStart, ASCII.isWhitespace(buffer[trimmedEnd - 1]) { trimmedEnd -= 1 }
        let value = trimmedStart..<trimmedEnd
        try noteFraming(buffer, name: name, value: value, into: &section.framing)
        section.fields.append((buffer.string(name), buffer.string(value)))
    }

    private func noteFraming(
        _ buffer: UnsafeBufferPointer<UInt8>, name: Range<Int>, value: Range<Int>, into framing: inout FramingFields
    ) throws(HTTPParseError) {
        switch name.count {
        case 4 where buffer.equalsToken(name, "host"):
            // §3.2: a Host value that is not `uri-host [ ":" port ]` is a 400, in 1.0 as in 1.1.
            guard HostSyntax.isValid(buffer, value) else { throw HTTPParseError(.badRequest, "invalid Host header") }
            framing.hostCount += 1
        case 14 where buffer.equalsToken(name, "content-length"):
            let length = try Self.contentLength(buffer, value)
            // §6.3: several Content-Length values are only acceptable when they are all the same.
            if let previous = framing.contentLength, previous != length {
                throw HTTPParseError(.badRequest, "conflicting Content-Length values")
            }
            framing.contentLength = length
        case 17 where buffer.equalsToken(name, "transfer-encoding"):
            var codings = framing.transferEncoding ?? TransferCodings()
            Self.countCodings(buffer, value, into: &codings)
            framing.transferEncoding = codings
        default:
            break
        }
    }

    /// §8.6: Content-Length = 1*DIGIT. No sign, no inner spaces, no list. Saturates at `Int.max` (then 413).
    static func contentLength(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>) throws(HTTPParseError) -> Int {
        guard !value.isEmpty else { throw HTTPParseError(.badRequest, "empty Content-Length") }
        var length = 0
        for index in value {
            guard let digit = ASCII.digitValue(buffer[index]) else {
                throw HTTPParseError(.badRequest, "invalid Content-Length")
            }
            length = length > (Int.max - 9) / 10 ? Int.max : length * 10 + digit
        }
        return length
    }

    /// Counts the codings of a Transfer-Encoding list (§6.1); empty list elements are ignored (RFC 9110 §5.6.1).
    static func countCodings(_ buffer: UnsafeBufferPointer<UInt8>, _ value: Range<Int>, into codings: inout TransferCodings) {
        var elementStart = value.lowerBound
        while elementStart <= value.upperBound {
            var elementEnd = elementStart
            while elementEnd < value.upperBound, buffer[elementEnd] != ASCII.comma { elementEnd += 1 }
            var start = elementStart, end = elementEnd
            while start < end, ASCII.isWhitespace(buffer[start]) { start += 1 }
            while end > start, ASCII.isWhitespace(buffer[end - 1]) { end -= 1 }
            if start < end {
                if buffer.equalsToken(start..<end, "chunked") { codings.chunked += 1 } else { codings.others += 1 }
            }
            elementStart = elementEnd + 1
        }
    }
}

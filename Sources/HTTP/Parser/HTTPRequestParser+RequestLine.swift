/// The request line: `method SP request-target SP HTTP-version` (RFC 9112 §3).
extension HTTPRequestParser {
    struct RequestLine {
        var method: HTTPMethod
        var target: Range<Int>
        var path: (segments: [String], hasTrailingSlash: Bool)
        var query: Range<Int>?
        var version: HTTPVersion
    }

    /// Skips empty lines before the request line (§2.2 allows ignoring at least one); returns where it starts.
    /// Bounded by the request-line limit so a stream of CRLFs cannot be buffered forever.
    /// Resumes at `progress.index` and leaves it where the next call must look.
    func skipLeadingEmptyLines(
        _ buffer: UnsafeBufferPointer<UInt8>, _ progress: inout HTTPParseProgress
    ) throws(HTTPParseError) -> Int? {
        var index = progress.index
        defer { progress.index = index }
        while index < buffer.count {
            progress.noteExamined()
            switch buffer[index] {
            case ASCII.lf:
                index += 1
            case ASCII.cr:
                guard index + 1 < buffer.count else { return nil }
                // §2.2: a CR not followed by LF is invalid.
                guard buffer[index + 1] == ASCII.lf else { throw HTTPParseError(.badRequest, "bare CR") }
                index += 2
            default:
                return index
            }
            if index > limits.maxRequestLineBytes {
                throw HTTPParseError(.badRequest, "too many empty lines before the request line")
            }
        }
        return nil
    }

    /// Finds the end of the request line. Fails with 414 as soon as more than `maxRequestLineBytes`
    /// arrive without a line end, instead of buffering on; and with 400 as soon as the method holds a
    /// non-token byte, so binary noise (a TLS ClientHello, say) is refused without waiting for a line end.
    /// Resumes at `progress.index` (with `methodChecked` from the previous call) and leaves both for the next.
    func findRequestLine(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, methodChecked: inout Bool,
        _ progress: inout HTTPParseProgress
    ) throws(HTTPParseError) -> (content: Range<Int>, next: Int)? {
        let limit = limits.maxRequestLineBytes
        var index = progress.index
        defer { progress.index = index }
        if !methodChecked {
            while index < buffer.count, index - start < limit, ASCII.isTchar(buffer[index]) {
                progress.noteExamined()
                index += 1
            }
            if index < buffer.count, index - start < limit {
                let byte = buffer[index]
                if byte != ASCII.space, byte != ASCII.cr, byte != ASCII.lf {
                    throw HTTPParseError(.badRequest, "invalid method")
                }
            } else if index - start < limit {
                return nil
            }
            methodChecked = true
        }
        // Whole words holding no line end, each byte within the limit.
        while index + 8 <= buffer.count, index + 8 - start <= limit, !ASCIIWords.mayEndLine(ASCIIWords.word(buffer, at: index)) {
            progress.noteExamined(8)
            index += 8
        }
        while index < buffer.count {
            progress.noteExamined()
            let byte = buffer[index]
            // §2.2: a bare LF is refused here as in the fields (see `scanFieldSection`); only the empty lines
            // before the request line may end in one, as nothing can be read from them either way.
            if byte == ASCII.lf { throw HTTPParseError(.badRequest, "bare LF after the request line") }
            if byte == ASCII.cr {
                guard index + 1 < buffer.count else { return nil }
                guard buffer[index + 1] == ASCII.lf else { throw HTTPParseError(.badRequest, "bare CR") }
                return (start..<index, index + 2)
            }
            if index - start >= limit { throw HTTPParseError(.uriTooLong, "request line too long") }
            index += 1
        }
        return nil
    }

    func parseRequestLine(_ buffer: UnsafeBufferPointer<UInt8>, _ line: Range<Int>) throws(HTTPParseError) -> RequestLine {
        // §3: method is a token, then exactly one SP.
        var index = line.lowerBound
        while index < line.upperBound, ASCII.isTchar(buffer[index]) { index += 1 }
        guard index > line.lowerBound, index < line.upperBound, buffer[index] == ASCII.space else {
            throw HTTPParseError(.badRequest, "invalid method")
        }
        let methodRange = line.lowerBound..<index

        // §3.2: the target is visible ASCII up to the next SP; a fragment is never sent (RFC 9110 §7.1).
        let targetStart = index + 1
        index = targetStart
        while index + 8 <= line.upperBound, ASCIIWords.isPlainTarget(ASCIIWords.word(buffer, at: index)) { index += 8 }
        while index < line.upperBound, ASCII.isVisible(buffer[index]), buffer[index] != ASCII.hash { index += 1 }
        if index < line.upperBound, buffer[index] == ASCII.hash {
            throw HTTPParseError(.badRequest, "fragment in request target")
        }
        guard index > targetStart, index < line.upperBound, buffer[index] == ASCII.space else {
            throw HTTPParseError(.badRequest, "invalid request target")
        }
        let target = targetStart..<index

        let version = try parseVersion(buffer, index + 1..<line.upperBound)
        let method = Self.method(buffer, methodRange)
        let form = try RequestTarget(buffer, target, method: method)
        var path: (segments: [String], hasTrailingSlash: Bool) = ([], false)
        if let pathRange = form.path { path = try PathNormalizer.normalize(buffer, pathRange) }
        return RequestLine(method: method, target: target, path: path, query: form.query, version: version)
    }

    /// §2.3: `HTTP/` DIGIT `.` DIGIT, case-sensitive. 1.0 and 1.1 are served; any other well-formed version is 505.
    func parseVersion(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) throws(HTTPParseError) -> HTTPVersion {
        let start = range.lowerBound
        guard range.count == 8, buffer.hasBytes(at: start, "HTTP/"),
              let major = ASCII.digitValue(buffer[start + 5]), buffer[start + 6] == ASCII.dot,
              let minor = ASCII.digitValue(buffer[start + 7])
        else { throw HTTPParseError(.badRequest, "malformed HTTP version") }
        guard major == 1, minor <= 1 else {
            throw HTTPParseError(.httpVersionNotSupported, "HTTP version not supported")
        }
        return minor == 1 ? .http1_1 : .http1_0
    }

    /// Maps the common methods without building a String; anything else becomes `.other`.
    static func method(_ buffer: UnsafeBufferPointer<UInt8>, _ range: Range<Int>) -> HTTPMethod {
        let start = range.lowerBound
        switch range.count {
        case 3:
            if buffer.hasBytes(at: start, "GET") { return .GET }
            if buffer.hasBytes(at: start, "PUT") { return .PUT }
        case 4:
            if buffer.hasBytes(at: start, "POST") { return .POST }
            if buffer.hasBytes(at: start, "HEAD") { return .HEAD }
        case 5:
            if buffer.hasBytes(at: start, "PATCH") { return .PATCH }
        case 6:
            if buffer.hasBytes(at: start, "DELETE") { return .DELETE }
        case 7:
            if buffer.hasBytes(at: start, "OPTIONS") { return .OPTIONS }
        default:
            break
        }
        return HTTPMethod(token: buffer.string(range))
    }
}

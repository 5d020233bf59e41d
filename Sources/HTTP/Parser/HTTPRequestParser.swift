/// A hand-written HTTP/1.1 request parser (RFC 9112). It is a pure function over every byte received so far
/// for the current request, starting at its first byte: it never sees a socket. The connection calls it again
/// with more bytes after `.needMore`, handing back the `HTTPParseProgress` value the last call left, so the scan
/// resumes where it stopped instead of starting over.
///
/// Scanning is byte-level over the caller's buffer; Strings are made once per field from a slice.
/// Every rejection is final: answer the status with `Connection: close` and close (framing is lost).
public struct HTTPRequestParser: Sendable {
    public var limits: HTTPParserLimits

    public init(limits: HTTPParserLimits = .init()) {
        self.limits = limits
    }

    public func parse(_ bytes: UnsafeRawBufferPointer) -> HTTPParseResult {
        bytes.withMemoryRebound(to: UInt8.self) { parse(buffer: $0) }
    }

    public func parse(_ bytes: [UInt8]) -> HTTPParseResult {
        bytes.withUnsafeBufferPointer { parse(buffer: $0) }
    }

    public func parse(_ bytes: ArraySlice<UInt8>) -> HTTPParseResult {
        bytes.withUnsafeBufferPointer { parse(buffer: $0) }
    }

    /// Parses the bytes received so far for the current request, continuing from `progress` (which the previous
    /// call with a shorter prefix of the same bytes left behind; start with `HTTPParseProgress()`). Gives the same
    /// result as parsing `bytes` from scratch, but scans only what is new. After `.complete` the progress is reset
    /// for the next request (whose bytes start after `consumed`); after `.failure` it must not be used again.
    public func parse(_ bytes: UnsafeRawBufferPointer, resuming progress: inout HTTPParseProgress) -> HTTPParseResult {
        bytes.withMemoryRebound(to: UInt8.self) { parse(buffer: $0, &progress) }
    }

    public func parse(_ bytes: [UInt8], resuming progress: inout HTTPParseProgress) -> HTTPParseResult {
        bytes.withUnsafeBufferPointer { parse(buffer: $0, &progress) }
    }

    func parse(buffer: UnsafeBufferPointer<UInt8>) -> HTTPParseResult {
        var progress = HTTPParseProgress()
        return parse(buffer: buffer, &progress)
    }

    func parse(buffer: UnsafeBufferPointer<UInt8>, _ progress: inout HTTPParseProgress) -> HTTPParseResult {
        do {
            let result = try parseRequest(buffer, &progress)
            if case .complete = result { progress = HTTPParseProgress(examined: progress.examined) }
            return result
        } catch {
            return .failure(error)
        }
    }

    private func parseRequest(
        _ buffer: UnsafeBufferPointer<UInt8>, _ progress: inout HTTPParseProgress
    ) throws(HTTPParseError) -> HTTPParseResult {
        if case .leadingLines = progress.phase {
            guard let lineStart = try skipLeadingEmptyLines(buffer, &progress) else { return .needMore(head: nil) }
            progress.phase = .requestLine(lineStart: lineStart, methodChecked: false)
        }
        if case .requestLine(let lineStart, var methodChecked) = progress.phase {
            let found = try findRequestLine(buffer, from: lineStart, methodChecked: &methodChecked, &progress)
            guard let line = found else {
                progress.phase = .requestLine(lineStart: lineStart, methodChecked: methodChecked)
                return .needMore(head: nil)
            }
            progress.phase = .fields(try parseRequestLine(buffer, line.content))
            progress.fieldScan = FieldScan(start: line.next)
        }
        if case .fields(let requestLine) = progress.phase {
            // Moved out, not copied, so appending to its field list does not copy the list.
            var fieldScan = progress.fieldScan
            progress.fieldScan = FieldScan(start: 0)
            let scanned = try scanFieldSection(buffer, &fieldScan, isTrailer: false, &progress)
            progress.fieldScan = fieldScan
            guard let section = scanned else { return .needMore(head: nil) }
            let framing = try bodyFraming(section.framing, version: requestLine.version)
            progress.head = HTTPRequestHead(
                method: requestLine.method, target: buffer.string(requestLine.target),
                pathSegments: requestLine.path.segments, hasTrailingSlash: requestLine.path.hasTrailingSlash,
                rawQuery: requestLine.query.map { buffer.string($0) }, version: requestLine.version,
                headers: HTTPHeaders(section.fields))
            progress.fieldScan = FieldScan(start: 0)
            progress.phase = .body(framing, bodyStart: section.end)
            progress.chunkScan = ChunkScan(start: section.end)
        }
        guard case .body(let framing, let bodyStart) = progress.phase, progress.head != nil else {
            preconditionFailure("parse progress past the head without a head")
        }

        // A complete request's head is moved out of the progress, not copied (a retain of each of its fields):
        // `parse` starts the next request's progress afresh.
        switch framing {
        case .none:
            return .complete(progress.head.take()!, body: [], consumed: bodyStart)
        case .length(let length):
            // `length` is at most `maxBodyBytes`, so this cannot overflow.
            let end = bodyStart + length
            guard buffer.count >= end else { return .needMore(head: progress.head) }
            return .complete(progress.head.take()!, body: Array(buffer[bodyStart..<end]), consumed: end)
        case .chunked:
            // Validate and find the end without copying; de-chunk only once the whole body is here.
            var body: [UInt8] = []
            var chunkScan = progress.chunkScan
            progress.chunkScan = ChunkScan(start: 0)
            let scanned = try scanChunkedBody(buffer, &chunkScan, into: &body, collect: false, &progress)
            progress.chunkScan = chunkScan
            guard let chunked = scanned else { return .needMore(head: progress.head) }
            body.reserveCapacity(chunked.size)
            _ = try scanChunkedBody(buffer, from: bodyStart, into: &body, collect: true)
            return .complete(progress.head.take()!, body: body, consumed: chunked.end)
        }
    }
}

extension HTTPRequestParser {
    enum BodyFraming: Equatable {
        case none
        case length(Int)
        case chunked
    }

    /// What the field section says about Host and the body (collected while scanning, no Strings).
    struct FramingFields {
        var hostCount = 0
        /// The Content-Length value, saturated at `Int.max`; nil when absent.
        var contentLength: Int?
        var transferEncoding: TransferCodings?
    }

    struct TransferCodings {
        var chunked = 0
        var others = 0
    }

    /// Decides how the body is delimited (RFC 9112 §6.3) and enforces Host (§3.2).
    func bodyFraming(_ fields: FramingFields, version: HTTPVersion) throws(HTTPParseError) -> BodyFraming {
        // §3.2: a 1.1 request carries exactly one Host; more than one is invalid in any version.
        if fields.hostCount > 1 { throw HTTPParseError(.badRequest, "more than one Host header") }
        if fields.hostCount == 0, version == .http1_1 { throw HTTPParseError(.badRequest, "missing Host header") }

        if let codings = fields.transferEncoding {
            // §6.1: Transfer-Encoding came with HTTP/1.1; a 1.0 message using it is faulty framing.
            if version == .http1_0 { throw HTTPParseError(.badRequest, "Transfer-Encoding in an HTTP/1.0 request") }
            // §6.1, §11.2: both present is how requests are smuggled; refuse rather than pick one.
            if fields.contentLength != nil {
                throw HTTPParseError(.badRequest, "both Transfer-Encoding and Content-Length")
            }
            // §6.1 allows 501 for codings we do not implement; like nginx, only exactly `chunked` is.
            if codings.others > 0 { throw HTTPParseError(.notImplemented, "unsupported Transfer-Encoding") }
            // §6.1: chunked must not be applied more than once; an empty list names no coding at all.
            if codings.chunked != 1 { throw HTTPParseError(.badRequest, "invalid Transfer-Encoding") }
            return .chunked
        }
        if let length = fields.contentLength {
            if length > limits.maxBodyBytes { throw HTTPParseError(.payloadTooLarge, "body too large") }
            return length == 0 ? .none : .length(length)
        }
        // §6.3: no Content-Length and no Transfer-Encoding in a request means no body.
        return .none
    }
}

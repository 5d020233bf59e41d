/// The chunked transfer coding (RFC 9112 §7.1):
/// `*( chunk-size [ chunk-ext ] CRLF chunk-data CRLF ) "0" [ chunk-ext ] CRLF trailer-section CRLF`.
extension HTTPRequestParser {
    /// Longest chunk-size line (size digits and extensions), and all extension bytes of one body.
    /// Extensions are ignored, so they only need to be bounded.
    static let maxChunkLineBytes = 1024
    static let maxChunkExtensionBytes = 16 * 1024
    /// All framing bytes of one body (size lines with their CRLF, the CRLF after each chunk's data). Without it,
    /// leading zeros (`000…01`) or 1-byte chunks let a body within `maxBodyBytes` arrive as ~1 GiB on the wire,
    /// all buffered and rescanned on every read. Over it: 413.
    static let maxChunkFramingBytes = 64 * 1024

    /// Walks the chunked body starting at `start`. Returns where the message ends and the decoded size,
    /// or nil while incomplete; with `collect`, appends the chunk data to `body` as it goes.
    /// Chunk framing is strict: CRLF only (a bare LF here would let a proxy and us disagree on framing).
    func scanChunkedBody(
        _ buffer: UnsafeBufferPointer<UInt8>, from start: Int, into body: inout [UInt8], collect: Bool
    ) throws(HTTPParseError) -> (end: Int, size: Int)? {
        var scan = ChunkScan(start: start)
        var progress = HTTPParseProgress()
        return try scanChunkedBody(buffer, &scan, into: &body, collect: collect, &progress)
    }

    /// How far a chunked body's scan got: the start of the next chunk (or of the trailers) and the counts so far.
    struct ChunkScan {
        var index: Int
        var total = 0
        var extensionBytes = 0
        var framingBytes = 0
        /// Set once the last chunk is in: the trailer section's own scan.
        var trailers: FieldScan?

        init(start: Int) { index = start }
    }

    /// Continues a chunked body's scan from the start of the first chunk `scan` has not seen whole.
    func scanChunkedBody(
        _ buffer: UnsafeBufferPointer<UInt8>, _ scan: inout ChunkScan, into body: inout [UInt8], collect: Bool,
        _ progress: inout HTTPParseProgress
    ) throws(HTTPParseError) -> (end: Int, size: Int)? {
        if scan.trailers != nil {
            guard let trailers = try scanFieldSection(buffer, &scan.trailers!, isTrailer: true, &progress) else {
                return nil
            }
            return (trailers.end, scan.total)
        }
        let count = buffer.count
        var index = scan.index
        var total = scan.total
        var extensionBytes = scan.extensionBytes
        var framingBytes = scan.framingBytes
        while true {
            // Any exit below that asks for more resumes here, at the start of this chunk.
            (scan.index, scan.total, scan.extensionBytes, scan.framingBytes) = (index, total, extensionBytes, framingBytes)
            // chunk-size = 1*HEXDIG; no sign, no `0x`, no spaces before it.
            let lineStart = index
            var size = 0
            while index < count, let digit = ASCII.hexValue(buffer[index]) {
                progress.noteExamined()
                // 413 as soon as the size outgrows what is left of the budget (this also rules out overflow).
                guard size <= Int.max >> 4 else { throw HTTPParseError(.payloadTooLarge, "body too large") }
                size = size << 4 | digit
                if size > limits.maxBodyBytes - total { throw HTTPParseError(.payloadTooLarge, "body too large") }
                index += 1
                if index - lineStart > Self.maxChunkLineBytes {
                    throw HTTPParseError(.badRequest, "chunk size line too long")
                }
            }
            guard index < count else { return nil }
            guard index > lineStart else { throw HTTPParseError(.badRequest, "invalid chunk size") }

            // chunk-ext: validated, then skipped.
            let extensionStart = index
            index = try Self.scanChunkExtensions(buffer, from: index)
            extensionBytes += index - extensionStart
            progress.noteExamined(index - extensionStart)
            if index - lineStart > Self.maxChunkLineBytes || extensionBytes > Self.maxChunkExtensionBytes {
                throw HTTPParseError(.badRequest, "chunk extensions too long")
            }
            guard index + 1 < count else { return nil }
            guard buffer[index] == ASCII.cr, buffer[index + 1] == ASCII.lf else {
                throw HTTPParseError(.badRequest, "chunk size line must end in CRLF")
            }
            index += 2
            framingBytes += index - lineStart + (size == 0 ? 0 : 2)
            if framingBytes > Self.maxChunkFramingBytes {
                throw HTTPParseError(.payloadTooLarge, "chunked framing too large")
            }

            if size == 0 {
                // last-chunk, then the trailer section (same grammar and limits as headers), then CRLF.
                scan.total = total
                scan.trailers = FieldScan(start: index)
                guard let trailers = try scanFieldSection(buffer, &scan.trailers!, isTrailer: true, &progress) else {
                    return nil
                }
                return (trailers.end, total)
            }

            // chunk-data, then CRLF. Check the CRLF bytes as soon as they arrive.
            let dataEnd = index + size
            if dataEnd < count, buffer[dataEnd] != ASCII.cr || dataEnd + 1 < count && buffer[dataEnd + 1] != ASCII.lf {
                throw HTTPParseError(.badRequest, "chunk data must be followed by CRLF")
            }
            guard dataEnd + 2 <= count else { return nil }
            if collect { body.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[index..<dataEnd])) }
            total += size
            index = dataEnd + 2
        }
    }
}

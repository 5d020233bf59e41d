/// Where the parse of one request stopped: the offsets to resume scanning from and the parts already parsed.
/// A plain value the connection keeps between reads and hands back with the grown buffer (which must start at
/// the same first byte), so each byte is scanned about once however the request is split across reads.
public struct HTTPParseProgress: Sendable {
    enum Phase: Sendable {
        /// Skipping empty lines before the request line; `index` is the next byte to look at.
        case leadingLines
        /// Looking for the end of the request line starting at `lineStart`.
        case requestLine(lineStart: Int, methodChecked: Bool)
        /// Scanning the header field section.
        case fields(HTTPRequestParser.RequestLine)
        /// Head complete; waiting for a Content-Length body or scanning a chunked one.
        case body(HTTPRequestParser.BodyFraming, bodyStart: Int)
    }

    var phase = Phase.leadingLines
    var index = 0
    var fieldScan = HTTPRequestParser.FieldScan(start: 0)
    var chunkScan = HTTPRequestParser.ChunkScan(start: 0)
    var head: HTTPRequestHead?
    /// Bytes the scanning loops looked at, summed over every call (counted in debug builds only; for tests).
    var examined = 0

    public init() {}

    init(examined: Int) {
        self.examined = examined
    }

    @inline(__always)
    mutating func noteExamined(_ count: Int = 1) {
        #if DEBUG
        examined += count
        #endif
    }
}

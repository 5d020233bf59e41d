import Testing
@testable import HTTP

/// Limits hold exactly at their value, fail one byte over it, and fail as soon as the bytes arrive
/// (a peer that never ends a line cannot make the parser buffer without bound).
@Suite("Enforcing parser limits")
struct ParserLimitTests {
    static let limits = HTTPParserLimits()

    /// A request line of exactly `length` bytes (without its CRLF).
    static func requestLine(length: Int) -> String {
        let fixed = "GET / HTTP/1.1".utf8.count
        return "GET /" + String(repeating: "a", count: length - fixed) + " HTTP/1.1"
    }

    /// Field lines totalling exactly `bytes` bytes (with their CRLFs), Host first.
    static func fieldLines(bytes: Int) -> String {
        let host = "Host: a\r\n"
        return host + "X: " + String(repeating: "v", count: bytes - host.utf8.count - 5) + "\r\n"
    }

    @Test("A request line exactly at the limit is accepted")
    func requestLineAtLimit() {
        let line = Self.requestLine(length: Self.limits.maxRequestLineBytes)
        #expect(parse(line + "\r\nHost: a\r\n\r\n").isComplete)
    }

    @Test("A request line one byte over the limit is 414")
    func requestLineOverLimit() {
        let line = Self.requestLine(length: Self.limits.maxRequestLineBytes + 1)
        #expect(parse(line + "\r\nHost: a\r\n\r\n").status == 414)
    }

    @Test("A request line that never ends is 414 as soon as it passes the limit")
    func endlessRequestLine() {
        let atLimit = "GET /" + String(repeating: "a", count: Self.limits.maxRequestLineBytes - 5)
        #expect(parse(atLimit).isNeedMore)
        #expect(parse(atLimit + "a").status == 414)
        #expect(parse(atLimit + "\r").isNeedMore)
        #expect(parse(String(repeating: "A", count: 40_000)).status == 414)
    }

    @Test("Endless empty lines before the request line are refused")
    func endlessEmptyLines() {
        #expect(parse(String(repeating: "\r\n", count: 100)).isNeedMore)
        #expect(parse(String(repeating: "\r\n", count: Self.limits.maxRequestLineBytes)).status == 400)
    }

    @Test("A header section exactly at the limit is accepted")
    func headerSectionAtLimit() {
        let fields = Self.fieldLines(bytes: Self.limits.maxHeaderBytes)
        #expect(fields.utf8.count == Self.limits.maxHeaderBytes)
        #expect(parse("GET / HTTP/1.1\r\n" + fields + "\r\n").isComplete)
    }

    @Test("A header section one byte over the limit is 431")
    func headerSectionOverLimit() {
        let fields = Self.fieldLines(bytes: Self.limits.maxHeaderBytes + 1)
        #expect(parse("GET / HTTP/1.1\r\n" + fields + "\r\n").status == 431)
    }

    @Test("A header that never ends is 431 once it reaches the limit, not buffered on")
    func endlessHeader() {
        let start = "GET / HTTP/1.1\r\nHost: a\r\nX: "
        let section = "Host: a\r\nX: ".utf8.count
        let justUnder = start + String(repeating: "v", count: Self.limits.maxHeaderBytes - section - 1)
        #expect(parse(justUnder).isNeedMore)
        #expect(parse(justUnder + "v").status == 431)
        #expect(parse(start + String(repeating: "v", count: 100_000)).status == 431)
        // A name that never reaches its colon is cut off the same way.
        #expect(parse("GET / HTTP/1.1\r\n" + String(repeating: "N", count: 40_000)).status == 431)
    }

    @Test("Many small header lines hit the count limit: a client's 100 plus a proxy's 3 pass, one more is 431")
    func headerCount() {
        #expect(Self.limits.maxHeaderCount == 103)
        let hundred = (1..<Self.limits.maxHeaderCount).map { "X-\($0): v\r\n" }.joined()
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\n" + hundred + "\r\n").head?.headers.count == 103)
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\n" + hundred + "X-Last: v\r\n\r\n").status == 431)
        // The 101st field fails as soon as its first byte arrives.
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\n" + hundred + "X").status == 431)
    }

    @Test("A Content-Length at the body limit is accepted, one over is 413 before any body arrives")
    func contentLengthLimit() {
        let max = Self.limits.maxBodyBytes
        let atLimit = "POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(max)\r\n\r\n"
        #expect(parse(atLimit).isNeedMore)
        #expect(parse(atLimit).head != nil)
        #expect(parse(Array(atLimit.utf8) + [UInt8](repeating: 0x61, count: max)).consumed == atLimit.utf8.count + max)
        #expect(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: \(max + 1)\r\n\r\n").status == 413)
    }

    /// A chunked body of `sizes` chunks filled with `x`.
    static func chunked(_ sizes: [Int]) -> [UInt8] {
        var text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        for size in sizes { text += String(size, radix: 16) + "\r\n" + String(repeating: "x", count: size) + "\r\n" }
        return Array((text + "0\r\n\r\n").utf8)
    }

    @Test("Chunks summing to the body limit are accepted, one byte more is 413")
    func chunkedLimit() {
        let max = Self.limits.maxBodyBytes
        let result = parse(Self.chunked([max / 2, max / 2]))
        #expect(result.isComplete)
        if case .complete(_, let body, _) = result { #expect(body.count == max) }
        #expect(parse(Self.chunked([max / 2, max / 2, 1])).status == 413)
        #expect(parse(Self.chunked([max + 1])).status == 413)
    }

    @Test("A chunk larger than the remaining budget is 413 as soon as its size line arrives")
    func chunkSizeFailsEarly() {
        let head = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
        #expect(parse(head + "80000\r\n").isNeedMore)
        #expect(parse(head + "100001").status == 413)
    }

    @Test("Custom limits are honoured")
    func customLimits() {
        var limits = HTTPParserLimits()
        limits.maxRequestLineBytes = 16
        limits.maxHeaderCount = 2
        limits.maxBodyBytes = 3
        #expect(parse("GET /abcdefghijk HTTP/1.1\r\nHost: a\r\n\r\n", limits: limits).status == 414)
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\nX: b\r\n\r\n", limits: limits).isComplete)
        #expect(parse("GET / HTTP/1.1\r\nHost: a\r\nX: b\r\nY: c\r\n\r\n", limits: limits).status == 431)
        #expect(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 4\r\n\r\nabcd", limits: limits).status == 413)
        #expect(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\n\r\nabc", limits: limits).body == "abc")
    }
}

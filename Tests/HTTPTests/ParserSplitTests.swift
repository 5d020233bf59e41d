import Testing
@testable import HTTP

/// Bytes arrive in arbitrary pieces: every strict prefix of a valid request must ask for more (never fail,
/// never complete early), and the whole input must give the same result as parsing it at once.
@Suite("Parsing a request split at every byte")
struct ParserSplitTests {
    static let requests: [String] = [
        "GET / HTTP/1.1\r\nHost: a\r\n\r\n",
        "\r\nGET /v1/stations/%E2%82%AC/?b=x+y&a=%41 HTTP/1.1\r\nHost: example.com\r\nAccept: */*\r\nX-A: 1\r\nx-a:  2 \r\n\r\n",
        "HEAD http://example.com/a/../b HTTP/1.0\r\n\r\n",
        "OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n",
        "POST /prices HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 13\r\n\r\n{\"price\":199}",
        "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n4;ext=1\r\nWiki\r\n5 ;a=\"b c\"\r\npedia\r\n000E\r\n in\r\n\r\nchunks.\r\n0\r\nExpires: never\r\n\r\n",
        "PUT /z HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ]

    @Test("Every strict prefix needs more and the whole request completes identically", arguments: requests)
    func everySplit(_ text: String) throws {
        let bytes = Array(text.utf8)
        let whole = ParseSnapshot(parse(bytes))
        try #require(whole.kind == .complete)
        #expect(whole.consumed == bytes.count)
        for length in 0..<bytes.count {
            let partial = parse(Array(bytes[..<length]))
            #expect(partial.isNeedMore, "prefix of \(length) bytes gave \(ParseSnapshot(partial))")
        }
        // And fed as the start of a longer buffer (as after a read that carried more), it is unchanged.
        #expect(ParseSnapshot(parse(bytes + Array("GET".utf8))) == whole)
    }

    @Test("needMore carries the head exactly once the header section is complete", arguments: [5, 6])
    func headAppearsWithSection(_ index: Int) throws {
        let text = Self.requests[index]
        let bytes = Array(text.utf8)
        let headerEnd = try #require(bytes.indices.first { Array(bytes[$0...].prefix(4)) == [13, 10, 13, 10] }) + 4
        let whole = ParseSnapshot(parse(bytes))
        for length in 0..<bytes.count {
            let partial = ParseSnapshot(parse(Array(bytes[..<length])))
            if length < headerEnd {
                #expect(partial.method == nil, "head too early at \(length)")
            } else {
                #expect(partial.headers == whole.headers, "head missing at \(length)")
                #expect(partial.segments == whole.segments)
            }
        }
    }
}

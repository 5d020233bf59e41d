import Testing
@testable import HTTP

/// Invalid requests from public parser corpora (llhttp `test/request/*.md` in strict mode, picohttpparser
/// `test.c`, h11's tests) that a lenient reader and a strict one would frame differently. Each must be refused
/// outright, so no byte after it can be answered as a request of its own.
@Suite("Public parser corpora: nothing that reads two ways is accepted")
struct ParserCorpusTests {
    static let cases: [MalformedCase] = [
        // llhttp invalid.md "Missing CR between headers" (the issue's `invalid:458`): a bare-LF reader sees a body
        // of 23 bytes holding a second request; a CRLF-only proxy sees one header and answers the rest itself.
        .init("llhttp: bare LF between two field lines",
              "GET / HTTP/1.1\r\nHost: localhost\r\nDummy: x\nContent-Length: 23\r\n\r\nGET / HTTP/1.1\r\nDummy: GET /admin HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
        .init("llhttp: headers separated by LF", "POST / HTTP/1.1\r\nHost: localhost:5000\r\nx:x\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n\r\n", 400),
        .init("llhttp: empty header separated by LF", "POST / HTTP/1.1\r\nHost: localhost:5000\r\nx:\nTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n\r\n", 400),
        .init("llhttp: empty header separated by CR", "POST / HTTP/1.1\r\nConnection: Close\r\nHost: localhost:5000\r\nx:\rTransfer-Encoding: chunked\r\n\r\n1\r\nA\r\n0\r\n\r\n", 400),
        .init("llhttp: headers separated by CR", "GET / HTTP/1.1\r\nHost: a\r\nFoo: 1\rBar: 2\r\n\r\n", 400),
        .init("llhttp: headers separated by dummy characters", "GET / HTTP/1.1\r\nConnection: close\r\nHost: a\r\n\rZGET /evil: HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        .init("llhttp: only LFs present", "POST / HTTP/1.1\nTransfer-Encoding: chunked\nTrailer: Baz\nFoo: abc\nBar: def\n\n1\nA\n0\n\nBaz: ghi\n\n", 400),
        .init("llhttp: bare LF ending the request line", "GET / HTTP/1.1\nHost: a\r\n\r\n", 400),
        .init("llhttp: bare LF ending the header section", "GET / HTTP/1.1\r\nHost: a\r\n\n", 400),
        .init("llhttp: spaces before a header (obs-fold hiding Content-Length)", "POST /hello HTTP/1.1\r\nHost: localhost\r\nFoo: bar\r\n Content-Length: 38\r\n\r\nGET /bye HTTP/1.1\r\nHost: localhost\r\n\r\n", 400),
        .init("llhttp: invalid space after the start line", "GET / HTTP/1.1\r\n Host: foo\r\n\r\n", 400),
        .init("llhttp: corrupted Connection header", Array("GET / HTTP/1.1\r\nHost: www.example.com\r\nConnection\r\u{1B}5".utf8) + [0xD5] + Array("eep-Alive\r\nAccept-Encoding: gzip\r\n\r\n".utf8), 400),
        .init("llhttp: chunked then a bare LF in the size line", "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\nA\r\n0\r\n\r\n", 400),
        .init("llhttp: Content-Length with a space inside", "PUT /url HTTP/1.1\r\nHost: a\r\nContent-Length: 003 4\r\n\r\n", 400),
        .init("llhttp: Transfer-Encoding chunked not last", "PUT /url HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, deflate\r\n\r\n", 501),
        // picohttpparser test.c.
        .init("picohttpparser: header name of a space only", "GET / HTTP/1.0\r\n :a\r\n\r\n", 400),
        .init("picohttpparser: NUL in the method", Array("G".utf8) + [0] + Array("T / HTTP/1.0\r\n\r\n".utf8), 400),
        .init("picohttpparser: tab in the method", "G\tT / HTTP/1.0\r\n\r\n", 400),
        .init("picohttpparser: DEL in the path", "GET /\u{7F}hello HTTP/1.0\r\n\r\n", 400),
        .init("picohttpparser: NUL in a header name", Array("GET / HTTP/1.0\r\na".utf8) + [0] + Array("b: c\r\n\r\n".utf8), 400),
        .init("picohttpparser: multiline (obs-fold) value", "GET / HTTP/1.0\r\nfoo: \r\nfoo: b\r\n  \tc\r\n\r\n", 400),
        // h11: a body-less request line with whitespace before the colon, and a bare LF after the version.
        .init("h11: whitespace between field name and colon", "GET / HTTP/1.1\r\nHost: a\r\nContent-Length : 5\r\n\r\nhello", 400),
        .init("h11: LF-only head", "GET /foo HTTP/1.1\nHost: a\n\n", 400),
    ]

    @Test("Refused with the right status", arguments: cases)
    func refused(_ example: MalformedCase) {
        let result = parse(example.bytes)
        guard case .failure(let error) = result else {
            Issue.record("accepted: \(ParseSnapshot(result))")
            return
        }
        #expect(error.status.code == example.status, "\(error.reason)")
    }

    @Test("On a connection, a smuggled second request behind a bare LF is never answered")
    func smuggledRequestIsNotServed() {
        var driver = ConnectionMachineTests.Driver()
        driver.receive("GET / HTTP/1.1\r\nHost: localhost\r\nDummy: x\nContent-Length: 23\r\n\r\nGET /admin HTTP/1.1\r\nHost: localhost\r\n\r\n")
        #expect(driver.statuses == [400])
        #expect(driver.host.served.isEmpty)
    }

    @Test("Empty lines ending in a bare LF before the request line are still skipped: nothing can be read from them")
    func leadingBareLineFeeds() {
        let text = "\n\r\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n"
        #expect(parse(text).head?.pathSegments == ["x"])
    }
}

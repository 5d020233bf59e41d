import Testing
@testable import HTTP

@Suite("Parsing valid requests")
struct ParserValidRequestTests {
    @Test("A simple GET is complete with its path, query, version and no body")
    func simpleGet() throws {
        let text = "GET /v1/stations?state=NSW HTTP/1.1\r\nHost: example.com\r\n\r\n"
        let result = parse(text)
        let head = try #require(result.head)
        #expect(head.method == .GET)
        #expect(head.target == "/v1/stations?state=NSW")
        #expect(head.pathSegments == ["v1", "stations"])
        #expect(head.hasTrailingSlash == false)
        #expect(head.rawQuery == "state=NSW")
        #expect(head.query["state"] == "NSW")
        #expect(head.version == .http1_1)
        #expect(head.path == "/v1/stations")
        #expect(result.body == "")
        #expect(result.consumed == text.utf8.count)
    }

    @Test("Headers keep their order and duplicates, and lookup ignores case")
    func headerOrderAndDuplicates() throws {
        let text = "GET / HTTP/1.1\r\nHost: a\r\nX-Tag: one\r\nAccept: */*\r\nx-tag: two\r\nX-Empty:\r\n\r\n"
        let head = try #require(parse(text).head)
        #expect(head.headers.map(\.name) == ["Host", "X-Tag", "Accept", "x-tag", "X-Empty"])
        #expect(head.headers["X-TAG"] == ["one", "two"])
        #expect(head.headers.first(name: "accept") == "*/*")
        #expect(head.headers.first(name: "x-empty") == "")
        #expect(head.pathSegments == [])
        #expect(head.rawQuery == nil)
    }

    @Test("Optional whitespace around a field value is trimmed, inner whitespace kept")
    func valueWhitespaceIsTrimmed() throws {
        let head = try #require(parse("GET / HTTP/1.1\r\nHost:\t a \r\nUser-Agent:  curl/8  x \t\r\n\r\n").head)
        #expect(head.headers.first(name: "Host") == "a")
        #expect(head.headers.first(name: "User-Agent") == "curl/8  x")
    }

    @Test("HTTP/1.1 keeps the connection alive unless it says close")
    func keepAliveIn11() throws {
        #expect(try #require(parse("GET / HTTP/1.1\r\nHost: a\r\n\r\n").head).wantsKeepAlive)
        #expect(try !#require(parse("GET / HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n").head).wantsKeepAlive)
    }

    @Test("HTTP/1.0 closes unless it asks for keep-alive, and may omit Host")
    func keepAliveIn10() throws {
        let plain = try #require(parse("GET / HTTP/1.0\r\n\r\n").head)
        #expect(plain.version == .http1_0)
        #expect(!plain.wantsKeepAlive)
        #expect(try #require(parse("GET / HTTP/1.0\r\nConnection: Keep-Alive\r\n\r\n").head).wantsKeepAlive)
    }

    @Test("HEAD, DELETE and an unknown token method parse; the router decides what they mean")
    func otherMethods() {
        #expect(parse("HEAD /x HTTP/1.1\r\nHost: a\r\n\r\n").head?.method == .HEAD)
        #expect(parse("DELETE /x HTTP/1.1\r\nHost: a\r\n\r\n").head?.method == .DELETE)
        #expect(parse("BREW /pot HTTP/1.1\r\nHost: a\r\n\r\n").head?.method == .other("BREW"))
        #expect(parse("get / HTTP/1.1\r\nHost: a\r\n\r\n").head?.method == .other("get"))
    }

    @Test("An absolute-form target routes on its path and query")
    func absoluteForm() throws {
        let head = try #require(parse("GET HTTP://example.com:8080/a/b?x=1 HTTP/1.1\r\nHost: example.com\r\n\r\n").head)
        #expect(head.target == "HTTP://example.com:8080/a/b?x=1")
        #expect(head.pathSegments == ["a", "b"])
        #expect(head.rawQuery == "x=1")
        let bare = try #require(parse("GET https://example.com HTTP/1.1\r\nHost: example.com\r\n\r\n").head)
        #expect(bare.pathSegments == [])
        #expect(bare.rawQuery == nil)
    }

    @Test("An asterisk-form target is accepted for OPTIONS")
    func asteriskWithOptions() throws {
        let head = try #require(parse("OPTIONS * HTTP/1.1\r\nHost: a\r\n\r\n").head)
        #expect(head.method == .OPTIONS)
        #expect(head.target == "*")
        #expect(head.pathSegments == [])
    }

    @Test("An authority-form target is accepted for CONNECT")
    func authorityWithConnect() throws {
        let head = try #require(parse("CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n").head)
        #expect(head.method == .CONNECT)
        #expect(head.target == "example.com:443")
    }

    @Test("A Content-Length body is returned exactly")
    func contentLengthBody() {
        let text = "POST /prices HTTP/1.1\r\nHost: a\r\nContent-Length: 11\r\n\r\nhello world"
        let result = parse(text)
        #expect(result.body == "hello world")
        #expect(result.consumed == text.utf8.count)
    }

    @Test("Repeated identical Content-Length fields are accepted")
    func identicalContentLengths() {
        let result = parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 3\r\ncontent-length: 3\r\n\r\nabc")
        #expect(result.body == "abc")
    }

    @Test("Content-Length zero means an empty body")
    func zeroContentLength() {
        #expect(parse("POST / HTTP/1.1\r\nHost: a\r\nContent-Length: 0\r\n\r\n").body == "")
    }

    @Test("A chunked body is de-chunked, its extensions ignored and its trailers discarded")
    func chunkedBody() throws {
        let text = "POST /up HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: Chunked\r\n\r\n"
            + "5;name=value\r\nhello\r\n"
            + "1 ; quoted=\"a b\"\r\n \r\n"
            + "00A\r\n0123456789\r\n"
            + "0;last\r\nX-Checksum: abc\r\nX-Other: 1\r\n\r\n"
        let result = parse(text)
        #expect(result.body == "hello 0123456789")
        #expect(result.consumed == text.utf8.count)
        let head = try #require(result.head)
        #expect(!head.headers.contains(name: "X-Checksum"))
    }

    @Test("Chunk extensions in every form the grammar allows are accepted and ignored")
    func chunkExtensionForms() {
        let text = "POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n"
            + "2;a;b=c\r\nhe\r\n"
            + "3 ; a = \"x\\\"y;z\" ;b\r\nllo\r\n"
            + "0;end=\"\"\r\n\r\n"
        #expect(parse(text).body == "hello")
    }

    @Test("Host values in RFC 3986 syntax are accepted in HTTP/1.1 and 1.0",
          arguments: ["example.com", "example.com:8080", "127.0.0.1:80", "[::1]", "[::1]:8443", "[2001:db8::7]",
                      "[::ffff:192.0.2.1]", "[v1.fe80::a+en1]", "xn--bcher-kva.example", "a%2Db", "under_score.~x",
                      "a!$&'()*+,;=b", "a:", ""])
    func validHosts(_ host: String) {
        for version in ["1.1", "1.0"] {
            #expect(parse("GET / HTTP/\(version)\r\nHost: \(host)\r\n\r\n").isComplete, "HTTP/\(version)")
        }
    }

    @Test("Transfer-Encoding with empty list elements still means chunked")
    func chunkedWithEmptyElements() {
        let result = parse("POST / HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: , chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n")
        #expect(result.body == "abc")
    }

    @Test("Pipelined requests report exactly the bytes of the first, and the rest parses next")
    func pipelinedRequests() throws {
        let first = "POST /a HTTP/1.1\r\nHost: a\r\nContent-Length: 2\r\n\r\nhi"
        let second = "GET /b HTTP/1.1\r\nHost: a\r\n\r\n"
        let third = "POST /c HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n1\r\nz\r\n0\r\n\r\n"
        let bytes = Array((first + second + third + "GET /d").utf8)
        let one = parse(bytes)
        #expect(one.consumed == first.utf8.count)
        #expect(one.body == "hi")
        let two = HTTPRequestParser().parse(bytes[first.utf8.count...])
        #expect(two.head?.pathSegments == ["b"])
        #expect(two.consumed == second.utf8.count)
        let three = HTTPRequestParser().parse(bytes[(first + second).utf8.count...])
        #expect(three.body == "z")
        #expect(three.consumed == third.utf8.count)
        let four = HTTPRequestParser().parse(bytes[(first + second + third).utf8.count...])
        #expect(four.isNeedMore)
    }

    @Test("Leading empty lines before the request line are skipped and counted as consumed")
    func leadingEmptyLines() {
        let text = "\r\n\r\n\nGET /x HTTP/1.1\r\nHost: a\r\n\r\n"
        let result = parse(text)
        #expect(result.head?.pathSegments == ["x"])
        #expect(result.consumed == text.utf8.count)
    }

    @Test("Obs-text bytes in a field value are allowed")
    func obsTextInValue() {
        let bytes = Array("GET / HTTP/1.1\r\nHost: a\r\nX-Name: caf".utf8) + [0xC3, 0xA9] + Array("\r\n\r\n".utf8)
        #expect(parse(bytes).head?.headers.first(name: "x-name") == "café")
    }

    @Test("The raw-pointer and slice entry points agree with the array one")
    func entryPointsAgree() {
        let bytes = Array("GET /a/b?q=1 HTTP/1.1\r\nHost: a\r\n\r\n".utf8)
        let parser = HTTPRequestParser()
        let expected = ParseSnapshot(parser.parse(bytes))
        #expect(expected.kind == .complete)
        #expect(bytes.withUnsafeBytes { ParseSnapshot(parser.parse($0)) } == expected)
        #expect(ParseSnapshot(parser.parse(bytes[...])) == expected)
        #expect(parser.parse(UnsafeRawBufferPointer(start: nil, count: 0)).isNeedMore)
    }

    @Test("Once the head is complete, needMore carries it (for Expect: 100-continue)")
    func needMoreCarriesHead() throws {
        let result = parse("PUT /f HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\nab")
        #expect(result.isNeedMore)
        let head = try #require(result.head)
        #expect(head.headers.first(name: "expect") == "100-continue")
        #expect(parse("PUT /f HTTP/1.1\r\nHost: a\r\n").head == nil)
    }
}

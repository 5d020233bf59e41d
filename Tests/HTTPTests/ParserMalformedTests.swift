import Testing
@testable import HTTP

/// One hostile or malformed request and the status the parser must answer.
struct MalformedCase: Sendable, CustomTestStringConvertible {
    var name: String
    var bytes: [UInt8]
    var status: Int

    init(_ name: String, _ text: String, _ status: Int) {
        self.init(name, Array(text.utf8), status)
    }

    init(_ name: String, _ bytes: [UInt8], _ status: Int) {
        self.name = name
        self.bytes = bytes
        self.status = status
    }

    var testDescription: String { "\(name) -> \(status)" }
}

private let head = "POST / HTTP/1.1\r\nHost: a\r\n"
private let chunkedHead = head + "Transfer-Encoding: chunked\r\n\r\n"
private func withHeader(_ line: String) -> String { "GET / HTTP/1.1\r\nHost: a\r\n" + line + "\r\n\r\n" }
private func withHeaderBytes(_ bytes: [UInt8]) -> [UInt8] {
    Array("GET / HTTP/1.1\r\nHost: a\r\nX-Value: a".utf8) + bytes + Array("b\r\n\r\n".utf8)
}
private func requestLine(_ line: String) -> String { line + "\r\nHost: a\r\n\r\n" }
private func withHost(_ value: [UInt8], version: String) -> [UInt8] {
    Array("GET / HTTP/\(version)\r\nHost: ".utf8) + value + Array("\r\n\r\n".utf8)
}

@Suite("Rejecting malformed and hostile requests")
struct ParserMalformedTests {
    static let cases: [MalformedCase] = [
        // Body framing (RFC 9112 §6).
        .init("Content-Length together with Transfer-Encoding", head + "Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        .init("Transfer-Encoding before Content-Length", head + "Transfer-Encoding: chunked\r\nContent-Length: 3\r\n\r\nabc", 400),
        .init("Transfer-Encoding gzip", head + "Transfer-Encoding: gzip\r\n\r\n", 501),
        .init("Transfer-Encoding identity", head + "Transfer-Encoding: identity\r\n\r\n", 501),
        .init("Transfer-Encoding chunked then gzip", head + "Transfer-Encoding: chunked, gzip\r\n\r\n", 501),
        .init("Transfer-Encoding gzip then chunked", head + "Transfer-Encoding: gzip, chunked\r\n\r\n", 501),
        .init("Transfer-Encoding chunked in two fields", head + "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n", 400),
        .init("Transfer-Encoding chunked twice in a list", head + "Transfer-Encoding: chunked, chunked\r\n\r\n", 400),
        .init("Transfer-Encoding with an empty value", head + "Transfer-Encoding: \r\n\r\n", 400),
        .init("Transfer-Encoding in HTTP/1.0", "POST / HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n", 400),
        .init("Content-Length -1", head + "Content-Length: -1\r\n\r\n", 400),
        .init("Content-Length +5", head + "Content-Length: +5\r\n\r\nabcde", 400),
        .init("Content-Length list of differing values", head + "Content-Length: 5, 6\r\n\r\nabcde", 400),
        .init("Content-Length list of equal values", head + "Content-Length: 5, 5\r\n\r\nabcde", 400),
        .init("two different Content-Length fields", head + "Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef", 400),
        .init("Content-Length with a space inside", head + "Content-Length: 1 0\r\n\r\n", 400),
        .init("Content-Length in hex", head + "Content-Length: 0x10\r\n\r\n", 400),
        .init("empty Content-Length", head + "Content-Length:\r\n\r\n", 400),
        .init("Content-Length that overflows", head + "Content-Length: 99999999999999999999999999\r\n\r\n", 413),
        .init("Content-Length over the body limit", head + "Content-Length: 1048577\r\n\r\n", 413),
        // Chunked coding (§7.1).
        .init("chunk size zz", chunkedHead + "zz\r\nabc\r\n0\r\n\r\n", 400),
        .init("chunk size that overflows", chunkedHead + "ffffffffffffffffff\r\nabc\r\n", 413),
        .init("chunk size with a plus sign", chunkedHead + "+5\r\nabcde\r\n0\r\n\r\n", 400),
        .init("chunk size with a minus sign", chunkedHead + "-5\r\nabcde\r\n0\r\n\r\n", 400),
        .init("chunk size with 0x", chunkedHead + "0x5\r\nabcde\r\n0\r\n\r\n", 400),
        .init("empty chunk size", chunkedHead + "\r\nabc\r\n0\r\n\r\n", 400),
        .init("chunk size followed by whitespace only", chunkedHead + "3 \r\nabc\r\n0\r\n\r\n", 400),
        .init("chunk data not followed by CRLF", chunkedHead + "3\r\nabcd\r\n0\r\n\r\n", 400),
        .init("chunk data followed by a byte and LF", chunkedHead + "3\r\nabcx\n0\r\n\r\n", 400),
        .init("chunk data followed by a bare LF", chunkedHead + "3\r\nabc\n0\r\n\r\n", 400),
        .init("chunk data followed by CR and garbage", chunkedHead + "3\r\nabc\rx0\r\n\r\n", 400),
        .init("chunk size line ending in a bare LF", chunkedHead + "3\nabc\r\n0\r\n\r\n", 400),
        .init("chunk extension with a control character", chunkedHead + "3;a=\u{01}\r\nabc\r\n0\r\n\r\n", 400),
        .init("chunk extension without a name", chunkedHead + "5;\r\nhello\r\n0\r\n\r\n", 400),
        .init("chunk extension with a value but no name", chunkedHead + "5;=v\r\nhello\r\n0\r\n\r\n", 400),
        .init("second chunk extension without a name", chunkedHead + "5;a=b;\r\nhello\r\n0\r\n\r\n", 400),
        .init("last-chunk extension without a name", chunkedHead + "5\r\nhello\r\n0;\r\n\r\n", 400),
        .init("chunk extension with an empty value", chunkedHead + "5;a=\r\nhello\r\n0\r\n\r\n", 400),
        .init("chunk extension with an unclosed quoted value", chunkedHead + "5;a=\"x\r\nhello\r\n0\r\n\r\n", 400),
        .init("chunk extension longer than its bound", chunkedHead + "3;" + String(repeating: "e", count: 1100) + "\r\nabc\r\n0\r\n\r\n", 400),
        .init("obs-fold in a trailer", chunkedHead + "0\r\nX-T: a\r\n b\r\n\r\n", 400),
        .init("trailer line ending in a bare LF", chunkedHead + "0\r\nX-T: a\n\r\n", 400),
        .init("trailer section ending in a bare LF", chunkedHead + "0\r\n\n", 400),
        .init("trailer without a colon", chunkedHead + "0\r\nX-T\r\n\r\n", 400),
        // Field lines (§5).
        .init("obs-fold continuation line", withHeader("X-A: one\r\n two"), 400),
        .init("space before the colon", withHeader("X-A : one"), 400),
        .init("tab before the colon", withHeader("X-A\t: one"), 400),
        .init("field line without a colon", withHeader("X-A one"), 400),
        .init("empty field name", withHeader(": one"), 400),
        .init("invalid character in a field name", withHeader("X(A): one"), 400),
        .init("non-ASCII field name", Array("GET / HTTP/1.1\r\nHost: a\r\nX".utf8) + [0xC3, 0xA9] + Array(": v\r\n\r\n".utf8), 400),
        .init("NUL in a field value", withHeaderBytes([0x00]), 400),
        .init("DEL in a field value", withHeaderBytes([0x7F]), 400),
        .init("escape character in a field value", withHeaderBytes([0x1B]), 400),
        .init("bare CR inside a field value", withHeaderBytes([0x0D]), 400),
        .init("bare CR ending a field line", "GET / HTTP/1.1\r\nHost: a\rX-B: c\r\n\r\n", 400),
        .init("bare CR ending the request line", "GET / HTTP/1.1\rHost: a\r\n\r\n", 400),
        .init("bare CR inside the request target", requestLine("GET /a\rb HTTP/1.1"), 400),
        .init("bare CR before the version", requestLine("GET /\rHTTP/1.1"), 400),
        .init("bare CR ending an HTTP/1.0 request line", "GET / HTTP/1.0\rX-A: b\r\n\r\n", 400),
        .init("bare CR inside a field name", "GET / HTTP/1.1\r\nHost: a\r\nX-\rA: b\r\n\r\n", 400),
        .init("CR CR LF ending a field line", "GET / HTTP/1.1\r\nHost: a\r\r\n\r\n", 400),
        .init("bare CR before the request line", "\rGET / HTTP/1.1\r\nHost: a\r\n\r\n", 400),
        .init("missing Host in HTTP/1.1", "GET / HTTP/1.1\r\nAccept: */*\r\n\r\n", 400),
        .init("two Host fields", "GET / HTTP/1.1\r\nHost: a\r\nhost: b\r\n\r\n", 400),
        .init("two Host fields in HTTP/1.0", "GET / HTTP/1.0\r\nHost: a\r\nHost: a\r\n\r\n", 400),
        // Host syntax (§3.2, RFC 3986 §3.2.2), whatever the version.
        .init("Host with a space inside", withHost(Array("a b".utf8), version: "1.1"), 400),
        .init("Host with a space inside in HTTP/1.0", withHost(Array("a b".utf8), version: "1.0"), 400),
        .init("Host with an opening brace", withHost(Array("{".utf8), version: "1.1"), 400),
        .init("Host with a closing brace in HTTP/1.0", withHost(Array("}".utf8), version: "1.0"), 400),
        .init("Host with a 0xFF byte", withHost([0x61, 0xFF], version: "1.1"), 400),
        .init("Host with a 0xFF byte in HTTP/1.0", withHost([0xFF], version: "1.0"), 400),
        .init("Host with a letter in the port", withHost(Array("a:8x".utf8), version: "1.1"), 400),
        .init("Host with two ports", withHost(Array("a:80:80".utf8), version: "1.1"), 400),
        .init("Host with an unclosed IP literal", withHost(Array("[::1".utf8), version: "1.1"), 400),
        .init("Host with a name in brackets", withHost(Array("[example.com]".utf8), version: "1.1"), 400),
        .init("Host with a bad percent escape", withHost(Array("a%zz".utf8), version: "1.0"), 400),
        .init("Host with userinfo", withHost(Array("user@a".utf8), version: "1.1"), 400),
        // Request line (§3).
        .init("HTTP/2.0", requestLine("GET / HTTP/2.0"), 505),
        .init("HTTP/1.2", requestLine("GET / HTTP/1.2"), 505),
        .init("HTTP/0.9 style version", requestLine("GET / HTTP/0.9"), 505),
        .init("HTTP/2 preface", "PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n", 505),
        .init("garbage minor version", requestLine("GET / HTTP/1.x"), 400),
        .init("lowercase http", requestLine("GET / http/1.1"), 400),
        .init("two-digit minor version", requestLine("GET / HTTP/1.10"), 400),
        .init("missing version", requestLine("GET /"), 400),
        .init("missing target and version", requestLine("GET"), 400),
        .init("double space after the method", requestLine("GET  / HTTP/1.1"), 400),
        .init("double space before the version", requestLine("GET /  HTTP/1.1"), 400),
        .init("trailing space after the version", requestLine("GET / HTTP/1.1 "), 400),
        .init("leading space before the method", requestLine(" GET / HTTP/1.1"), 400),
        .init("tab as separator", requestLine("GET\t/ HTTP/1.1"), 400),
        .init("invalid character in the method", requestLine("GE(T / HTTP/1.1"), 400),
        .init("fragment in the target", requestLine("GET /a#frag HTTP/1.1"), 400),
        .init("non-ASCII byte in the target", Array("GET /caf".utf8) + [0xC3, 0xA9] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8), 400),
        .init("control character in the target", Array("GET /a".utf8) + [0x01] + Array(" HTTP/1.1\r\nHost: a\r\n\r\n".utf8), 400),
        .init("invalid percent escape", requestLine("GET /%zz HTTP/1.1"), 400),
        .init("truncated percent escape", requestLine("GET /a%4 HTTP/1.1"), 400),
        .init("percent-encoded NUL", requestLine("GET /%00 HTTP/1.1"), 400),
        .init("overlong UTF-8 dot", requestLine("GET /%c0%ae%c0%ae/etc HTTP/1.1"), 400),
        .init("asterisk with GET", requestLine("GET * HTTP/1.1"), 400),
        .init("asterisk followed by a path", requestLine("OPTIONS */x HTTP/1.1"), 400),
        .init("relative target", requestLine("GET path HTTP/1.1"), 400),
        .init("authority-form without CONNECT", requestLine("GET example.com:80 HTTP/1.1"), 400),
        .init("CONNECT with an origin-form target", requestLine("CONNECT / HTTP/1.1"), 400),
        .init("CONNECT without a port", requestLine("CONNECT example.com HTTP/1.1"), 400),
        .init("absolute-form with another scheme", requestLine("GET ftp://example.com/ HTTP/1.1"), 400),
        .init("absolute-form with an empty authority", requestLine("GET http:///etc HTTP/1.1"), 400),
        .init("absolute-form with userinfo", requestLine("GET http://user@example.com/ HTTP/1.1"), 400),
    ]

    @Test("A malformed request fails with its status", arguments: cases)
    func rejects(_ malformed: MalformedCase) {
        #expect(parse(malformed.bytes).status == malformed.status)
    }

    @Test("Binary noise such as a TLS ClientHello is refused from its first bytes")
    func binaryNoiseFailsEarly() {
        #expect(parse([0x16, 0x03, 0x01, 0x02, 0x00, 0x01]).status == 400)
        #expect(parse("GE\u{01}").status == 400)
        #expect(parse("GE").isNeedMore)
    }

    @Test("Obs-fold is named as such, not mistaken for a bad field name")
    func obsFoldReason() {
        guard case .failure(let error) = parse("GET / HTTP/1.1\r\nHost: a\r\nX-A: one\r\n\ttwo\r\n\r\n") else {
            Issue.record("expected a failure")
            return
        }
        #expect(error == HTTPParseError(.badRequest, "obsolete line folding"))
    }

    @Test("The table covers enough hostile requests")
    func tableSize() {
        #expect(Self.cases.count >= 45)
    }
}

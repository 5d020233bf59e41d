import Testing
@testable import HTTP

/// Header lookups read names in place with fast paths (length, then exact equality, then ASCII case folding):
/// they must still agree with a plain reading of RFC 9110's case-insensitive field names.
@Suite struct HeaderLookupTests {
    /// The reference: ASCII letters fold, nothing else does.
    static func sameName(_ a: String, _ b: String) -> Bool {
        let fold = { (byte: UInt8) in byte >= 65 && byte <= 90 ? byte | 0x20 : byte }
        return a.utf8.map(fold) == b.utf8.map(fold)
    }

    static let names = [
        "Vary", "vary", "VARY", "Date", "Content-Type", "content-type", "CONTENT-TYPE", "Content-Typf", "X-Content-Type-Options",
        "x-content-type-options", "Accept-Encoding", "Accept-Encodinf", "[ary", "{ary", "Vary ", "Vär", "V\u{0}ry", "",
        "A-Name-Longer-Than-Fifteen-Bytes", "a-name-longer-than-fifteen-bytes", "a-name-longer-than-fifteen-byteZ",
    ]

    @Test(arguments: names) func everyLookupAgreesWithTheReference(_ name: String) {
        let headers = HTTPHeaders(Self.names.enumerated().map { ($0.element, "value \($0.offset)") })
        let expected = Self.names.enumerated().first { Self.sameName($0.element, name) }.map { "value \($0.offset)" }
        #expect(headers.first(name: name) == expected, "\(name.debugDescription)")
        #expect(headers.contains(name: name) == (expected != nil))
        #expect(headers[name] == Self.names.enumerated().filter { Self.sameName($0.element, name) }.map { "value \($0.offset)" })
        for other in Self.names {
            #expect(HTTPHeaders.equalsIgnoringCase(name, other) == Self.sameName(name, other), "\(name.debugDescription) vs \(other.debugDescription)")
        }
    }

    @Test func aLaterVaryFieldCounts() {
        #expect(CompressionMiddleware.variesOnEncoding(HTTPHeaders([("Vary", "Origin"), ("Content-Type", "text/plain"), ("vary", "accept-encoding")])))
        #expect(CompressionMiddleware.variesOnEncoding(HTTPHeaders([("VARY", "Accept, Accept-Encoding")])))
        #expect(CompressionMiddleware.variesOnEncoding(HTTPHeaders([("Vary", "*")])))
        #expect(!CompressionMiddleware.variesOnEncoding(HTTPHeaders([("Vary", "Origin"), ("Vary-Not", "Accept-Encoding")])))
    }

    @Test func theServerWritesEveryFieldItDoesNotManage() {
        var response = Response(headers: HTTPHeaders([
            ("Content-Type", "application/json"), ("X-A-Name-Longer-Than-Fifteen", "a value longer than fifteen bytes"),
            ("content-length", "999"), ("Vary", "Accept-Encoding"), ("date", "yesterday"),
        ]), body: Array("{}".utf8))
        response.status = .ok
        var buffer: [UInt8] = []
        ResponseSerializer.writeHead(
            response, version: HTTPVersion(major: 1, minor: 1), keepAlive: true, date: Array("now".utf8), serverName: Array("t".utf8),
            into: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"
            + "X-A-Name-Longer-Than-Fifteen: a value longer than fifteen bytes\r\nVary: Accept-Encoding\r\n"
            + "Content-Length: 2\r\nDate: now\r\nServer: t\r\n\r\n")
    }
}

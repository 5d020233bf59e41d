import Foundation
import Testing
@testable import HTTP

/// `Accept-Encoding` negotiation through the real middleware chain (conditional requests outside compression).
@Suite("gzip responses: negotiation, Vary, ETags per encoding, 304")
struct CompressionTests {
    static let big = Array(String(repeating: #"{"station":"Ampol Umina","price":189.9},"#, count: 100).utf8)
    /// The stored variant, deliberately not what on-the-fly compression would make (level 9 instead of 1).
    static let stored = CompressibleBody(big, etag: #"W/"memo""#, gzip: Gzip.compress(big, level: 9))

    static func app() -> Application {
        let app = makeTestApp { app in
            app.middleware = [app.errors, ConditionalRequestMiddleware(), CompressionMiddleware()]
            app.get("big") { _ in Response(headers: ["Content-Type": "application/json", "ETag": #""abc""#], body: big) }
            app.get("small") { _ in Response(headers: ["Content-Type": "application/json", "ETag": #""s""#], body: Array(#"{"ok":true}"#.utf8)) }
            app.get("memo") { _ in
                Response(headers: ["Content-Type": "application/json", "ETag": #"W/"memo""#, "Vary": "Accept-Encoding"], compressible: stored)
            }
            app.get("png") { _ in Response(contentType: "image/png", body: [UInt8](repeating: 7, count: 4096)) }
        }
        return app
    }

    static func get(_ path: String, _ headers: HTTPHeaders = [:], method: HTTPMethod = .GET) throws -> TestResponse {
        try app().test(method, path, headers: headers)
    }

    @Test("Without Accept-Encoding the body is plain, and still says Vary: Accept-Encoding")
    func noHeaderIsIdentity() throws {
        let response = try Self.get("/big")
        #expect(response.body == Self.big)
        #expect(response.headers.first(name: "Content-Encoding") == nil)
        #expect(response.headers.first(name: "Vary") == "Accept-Encoding")
        #expect(response.headers.first(name: "ETag") == #""abc""#)
    }

    @Test("gzip is served compressed, decodes to the plain bytes, with its own ETag")
    func gzipServed() throws {
        let response = try Self.get("/big", ["Accept-Encoding": "gzip, deflate, br"])
        #expect(response.headers.first(name: "Content-Encoding") == "gzip")
        #expect(response.body.count < Self.big.count / 4)
        #expect(Gzip.decompress(response.body) == Self.big)
        #expect(response.headers.first(name: "ETag") == #""abc-gz""#)
        #expect(response.headers.first(name: "Vary") == "Accept-Encoding")
    }

    @Test("q-values pick the encoding", arguments: [
        ("gzip;q=0.5, identity", false), ("gzip;q=0", false), ("gzip; q=0.000", false), ("br, deflate", false), ("", false),
        ("*", true), ("x-gzip", true), ("GZIP;Q=1.0", true), ("identity;q=0.2, gzip;q=0.8", true), ("gzip;q=0.5, identity;q=0.5", true),
        ("*;q=0.1, identity;q=0.1", true), ("gzip;q=2", false), ("gzip;q=0.1234", false),
        (" gzip ;\tq=0.8 ,identity", false), (",,gzip,,", true), ("gzip;level=9", true), ("gzip;q=", false),
        ("gzip;q=0.5, gzip;q=1", true), ("gzipx, x-gzi", false), ("identity;q=0.5, *", true),
    ])
    func qValues(_ header: String, gzip: Bool) throws {
        let response = try Self.get("/big", ["Accept-Encoding": header])
        #expect((response.headers.first(name: "Content-Encoding") == "gzip") == gzip, "\(header)")
        #expect(response.status == .ok)
    }

    @Test("A small body stays plain unless identity is refused, then it is gzipped")
    func smallBodies() throws {
        #expect(try Self.get("/small", ["Accept-Encoding": "gzip"]).headers.first(name: "Content-Encoding") == nil)
        let forced = try Self.get("/small", ["Accept-Encoding": "identity;q=0, gzip"])
        #expect(forced.headers.first(name: "Content-Encoding") == "gzip")
        #expect(Gzip.decompress(forced.body) == Array(#"{"ok":true}"#.utf8))
    }

    @Test("Refusing identity with no gzip on offer is 406", arguments: ["identity;q=0", "*;q=0", "gzip;q=0, identity;q=0", "br, identity;q=0"])
    func notAcceptable(_ header: String) throws {
        let response = try Self.get("/big", ["Accept-Encoding": header])
        #expect(response.status == .notAcceptable)
        #expect(response.bodyString.contains(#""error":true"#))
    }

    @Test("If-None-Match gets 304 only against the ETag of the encoding it would be served")
    func conditionalPerEncoding() throws {
        let gz = try Self.get("/big", ["Accept-Encoding": "gzip", "If-None-Match": #""abc-gz""#])
        #expect(gz.status == .notModified)
        #expect(gz.headers.first(name: "ETag") == #""abc-gz""#)
        #expect(gz.headers.first(name: "Vary") == "Accept-Encoding")
        #expect(try Self.get("/big", ["If-None-Match": #""abc-gz""#]).status == .ok)
        #expect(try Self.get("/big", ["Accept-Encoding": "gzip", "If-None-Match": #""abc""#]).status == .ok)
        #expect(try Self.get("/big", ["If-None-Match": #""abc""#]).status == .notModified)
        let memo = try Self.get("/memo", ["Accept-Encoding": "gzip", "If-None-Match": #"W/"memo-gz""#])
        #expect(memo.status == .notModified)
    }

    @Test("A stored variant is served as stored, not compressed again, and HEAD says the same")
    func storedVariant() throws {
        let response = try Self.get("/memo", ["Accept-Encoding": "gzip"])
        #expect(response.body == Self.stored.gzip)
        #expect(response.body != Gzip.compress(Self.big))
        #expect(response.headers.first(name: "ETag") == #"W/"memo-gz""#)
        let head = try Self.get("/memo", ["Accept-Encoding": "gzip"], method: .HEAD)
        #expect(head.headers.first(name: "Content-Encoding") == "gzip")
        #expect(head.headers.first(name: "ETag") == #"W/"memo-gz""#)
        #expect(try Self.get("/memo").body == Self.big)
    }

    /// The two gzips of a stored body differ in bytes, so their shared ETag is weak even where the plain one is
    /// strong (a share page's): a strong one promises identical bytes to caches and range requests.
    @Test func aStoredBodysGzipETagIsWeakBecauseItsBytesVary() throws {
        let body = CompressibleBody(Self.big, etag: #""strong""#)
        #expect(body.gzipETag == #"W/"strong-gz""#)
        #expect(body.gzip != body.gzip, "the first gzip (fast level) and the kept one differ")
        #expect(CompressibleBody(Self.big, etag: #"W/"weak""#).gzipETag == #"W/"weak-gz""#)
    }

    @Test("A stored body is gzipped fast for its first client, then once at the better level and kept")
    func lazyVariantIsKeptOnReuse() {
        let body = CompressibleBody(Self.big, etag: #""x""#)
        let first = body.gzip
        #expect(Gzip.decompress(first) == Self.big)
        #expect(first == Gzip.compress(Self.big, level: Gzip.fastLevel))
        #expect(!body.keepsGzip, "a body asked for once is never compressed at the stored level")
        let second = body.gzip
        #expect(Gzip.decompress(second) == Self.big)
        #expect(second == Gzip.compress(Self.big, level: Gzip.storedLevel))
        #expect(body.keepsGzip)
        second.withUnsafeBufferPointer { a in body.gzip.withUnsafeBufferPointer { b in #expect(a.baseAddress == b.baseAddress) } }
    }

    /// `big` (4.1 KB) over a 1 KB first-use limit: a large body, as a country-wide list is for the real limit.
    static func largeApp(_ body: CompressibleBody) -> Application {
        makeTestApp { app in
            app.middleware = [app.errors, ConditionalRequestMiddleware(), CompressionMiddleware(firstUseLimit: 1024)]
            app.get("fly") { _ in Response(headers: ["Content-Type": "application/json", "ETag": #""f""#], body: big) }
            app.get("memo") { _ in Response(headers: ["Content-Type": "application/json", "ETag": #"W/"m""#], compressible: body) }
        }
    }

    @Test("A body over the first-use limit goes out plain to its first client, then gzipped and kept")
    func largeBodyIsCompressedOnlyOnReuse() throws {
        let body = CompressibleBody(Self.big, etag: #"W/"m""#)
        let app = Self.largeApp(body)
        let first = try app.test(.GET, "/memo", headers: ["Accept-Encoding": "gzip"])
        #expect(first.body == Self.big)
        #expect(first.headers.first(name: "Content-Encoding") == nil)
        #expect(first.headers.first(name: "ETag") == #"W/"m""#)
        #expect(first.headers.first(name: "Vary") == "Accept-Encoding")
        #expect(!body.keepsGzip)
        let second = try app.test(.GET, "/memo", headers: ["Accept-Encoding": "gzip"])
        #expect(second.headers.first(name: "Content-Encoding") == "gzip")
        #expect(second.body == Gzip.compress(Self.big, level: Gzip.storedLevel))
        #expect(second.headers.first(name: "ETag") == #"W/"m-gz""#)
        #expect(body.keepsGzip)
    }

    @Test("A per-request body over the first-use limit goes out plain, unless the client refuses identity")
    func largePerRequestBodyIsNotCompressed() throws {
        let app = Self.largeApp(CompressibleBody(Self.big, etag: nil))
        let plain = try app.test(.GET, "/fly", headers: ["Accept-Encoding": "gzip"])
        #expect(plain.body == Self.big)
        #expect(plain.headers.first(name: "Content-Encoding") == nil)
        #expect(plain.headers.first(name: "ETag") == #""f""#)
        let refused = try app.test(.GET, "/fly", headers: ["Accept-Encoding": "gzip, identity;q=0"])
        #expect(refused.headers.first(name: "Content-Encoding") == "gzip")
        #expect(Gzip.decompress(refused.body) == Self.big)
        let memo = try app.test(.GET, "/memo", headers: ["Accept-Encoding": "gzip, identity;q=0"])
        #expect(memo.headers.first(name: "Content-Encoding") == "gzip")
    }

    @Test("Images are left alone: no gzip, no Vary")
    func imagesUntouched() throws {
        let response = try Self.get("/png", ["Accept-Encoding": "gzip"])
        #expect(response.headers.first(name: "Content-Encoding") == nil)
        #expect(response.headers.first(name: "Vary") == nil)
    }

    @Test("On the wire, Content-Length is the compressed size for GET and HEAD alike")
    func liveContentLength() throws {
        let app = Self.app()
        try withLiveServer(app) { port in
            let client = try RawClient(port: port)
            try client.send("GET /big HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\n\r\n")
            let get = try #require(client.readResponses(1).first)
            let length = try #require(get.header("Content-Length").flatMap { Int($0) })
            #expect(length == get.body.count)
            #expect(Gzip.decompress(get.body) == Self.big)
            let headClient = try RawClient(port: port)
            try headClient.send("HEAD /big HTTP/1.1\r\nHost: a\r\nAccept-Encoding: gzip\r\nConnection: close\r\n\r\n")
            let head = try #require(RawResponse.parseAll(headClient.readUntilClosed().bytes, bodyless: true).first)
            #expect(head.header("Content-Length") == String(length))
            #expect(head.header("Content-Encoding") == "gzip")
            #expect(head.body.isEmpty)
        }
    }
}

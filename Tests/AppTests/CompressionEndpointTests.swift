import Foundation
import Testing

@testable import App
@testable import HTTP

/// gzip on the real endpoints, as documented in `Public/openapi.json` (info, "Compression").
@Suite("gzip on the API: every documented GET, stored variants, 304 per encoding")
struct CompressionEndpointTests {
    @Test func theSpecDocumentsCompression() throws {
        let spec = try OpenAPISpec.load()
        let description = spec.document["info"]?["description"]?.stringValue ?? ""
        #expect(description.contains("Accept-Encoding: gzip") && description.contains("-gz") && description.contains("406"))
    }

    @Test func everyDocumentedGetAnswersGzipThatDecodesToThePlainBody() throws {
        let spec = try OpenAPISpec.load()
        // Every state is on its sample, judged at its recording, so the wall clock cannot change a body between requests.
        let app = try AppTestSupport.sharedSampleApp()
        let registered = Set(app.routes.map(OpenAPIContractTests.openAPIPath))
        var compressed = 0
        // The data API: /health and /metrics change between two requests, /internal/ is not for clients.
        for operation in spec.operations where operation.method == "get" && registered.contains(operation.path) && operation.path.hasPrefix("/v1/")
            && !OpenAPIContractTests.needsDatabase(operation) {
            let target = spec.target(operation, query: spec.exampleQuery(operation))
            let plain = try app.test(.GET, target)
            let gzip = try app.test(.GET, target, headers: ["Accept-Encoding": "gzip"])
            #expect(gzip.status == plain.status, "\(target)")
            #expect(gzip.headers.tokens(name: "Vary").contains("accept-encoding"), "\(target): no Vary: Accept-Encoding")
            guard gzip.headers.first(name: "Content-Encoding") == "gzip" else {
                #expect(plain.body.count < 1024, "\(target): \(plain.body.count) bytes sent uncompressed")
                continue
            }
            compressed += 1
            #expect(Gzip.decompress(gzip.body) == plain.body, "\(target): gzip does not decode to the plain body")
            if let etag = plain.headers.first(name: "ETag") {
                // A stored body's gzip ETag is weak (its first and later gzips differ in bytes); one gzipped per
                // request keeps the plain one's strength.
                let derived = CompressibleBody.gzipETag(for: etag)
                let gzipETag = try require(gzip.headers.first(name: "ETag"))
                #expect([derived, derived.hasPrefix("W/") ? derived : "W/" + derived].contains(gzipETag), "\(target): \(gzipETag)")
                let revalidated = try app.test(.GET, target, headers: ["Accept-Encoding": "gzip", "If-None-Match": gzipETag])
                #expect(revalidated.status == .notModified, "\(target) If-None-Match \(gzipETag): \(revalidated.status)")
                #expect(try app.test(.GET, target, headers: ["If-None-Match": gzipETag]).status == .ok, "\(target): gzip ETag matched plain")
            }
        }
        #expect(compressed >= 5, "only \(compressed) documented GETs were large enough to compress")
    }

    @Test func aStationDetailIsCompressedOnceAndServedFromTheSnapshot() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let plain = try app.test(.GET, "/v1/stations/1").body
        let first = try app.test(.GET, "/v1/stations/1", headers: ["Accept-Encoding": "gzip"])
        let second = try app.test(.GET, "/v1/stations/1", headers: ["Accept-Encoding": "gzip"])
        let third = try app.test(.GET, "/v1/stations/1", headers: ["Accept-Encoding": "gzip"])
        #expect(first.headers.first(name: "Content-Encoding") == "gzip")
        // The shared app may have served it before: the first here is the fast one or the stored one.
        #expect([Gzip.compress(plain, level: Gzip.fastLevel), Gzip.compress(plain, level: Gzip.storedLevel)].contains(first.body))
        // From its second use on, stored at Gzip.storedLevel, not recompressed per request at the fast level.
        #expect(second.body == third.body)
        #expect(second.body == Gzip.compress(plain, level: Gzip.storedLevel))
    }

    @Test func aClientRefusingEveryEncodingGets406() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let response = try app.test(.GET, "/v1/stations?state=NSW&limit=50", headers: ["Accept-Encoding": "identity;q=0"])
        #expect(response.status == .notAcceptable)
        #expect(response.bodyString.contains(#""error":true"#))
    }
}

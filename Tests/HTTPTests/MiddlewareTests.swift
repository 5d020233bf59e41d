import Foundation
import Testing
@testable import HTTP

@Suite struct MiddlewareTests {
    @Test func matchingIfNoneMatchGets304WithoutBody() throws {
        let app = makeTestApp { app in
            app.middleware.append(ConditionalRequestMiddleware())
            app.get("tagged") { _ in Response(status: .ok, headers: ["ETag": "\"v1\"", "Cache-Control": "public, max-age=60"], body: Array("data".utf8)) }
        }
        let fresh = try app.test(.GET, "/tagged", headers: ["If-None-Match": "\"v0\", W/\"v1\""])
        #expect(fresh.status == .notModified)
        #expect(fresh.body.isEmpty)
        #expect(fresh.headers.first(name: "ETag") == "\"v1\"")
        #expect(fresh.headers.first(name: "Cache-Control") == "public, max-age=60")
        let stale = try app.test(.GET, "/tagged", headers: ["If-None-Match": "\"v0\""])
        #expect(stale.status == .ok)
        #expect(stale.bodyString == "data")
    }

    @Test func requestLoggingWritesOneLineWithTheRoutePattern() throws {
        let sink = LogSink.inMemory()
        let logger = Logger(label: "http", level: .info, sink: sink)
        let app = Application(environment: .testing, logger: logger)
        app.middleware = [RequestLoggingMiddleware(logger: logger), ErrorMiddleware(revealDetails: false, logger: logger)]
        app.get("items", ":id") { _ in "x" }
        try app.test(.GET, "/items/5", peer: "10.1.2.3")
        try app.test(.GET, "/nowhere")
        #expect(sink.lines.count == 2)
        #expect(sink.lines[0].contains("10.1.2.3 GET /items/:id 200"))
        #expect(sink.lines[1].contains("GET /nowhere 404"))
    }

    @Test func corsPreflightIsAnswered() throws {
        let app = makeTestApp { $0.middleware.append(CORSMiddleware()) }
        let res = try app.test(.OPTIONS, "/hello", headers: ["Origin": "https://example.com", "Access-Control-Request-Method": "GET"])
        #expect(res.status == .noContent)
        #expect(res.headers.first(name: "Access-Control-Allow-Origin") == "*")
        let plain = try app.test(.GET, "/hello", headers: ["Origin": "https://example.com"])
        #expect(plain.headers.first(name: "Access-Control-Allow-Origin") == "*")
    }
}

/// A class so each test's public directory is removed when the test ends (`deinit`).
@Suite final class FileMiddlewareTests {
    /// Holds the public directory (`public/`) and a file outside it (`outside.txt`).
    let scratch: String
    let root: String

    init() throws {
        scratch = NSTemporaryDirectory() + "petty-public-\(UUID().uuidString)"
        root = scratch + "/public"
        let fm = FileManager.default
        try fm.createDirectory(atPath: root + "/css", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: root + "/.well-known", withIntermediateDirectories: true)
        // Written in place: Foundation's atomic write leaves a `TemporaryDirectory.*` behind in /tmp on Linux.
        try "<h1>home</h1>".write(toFile: root + "/index.html", atomically: false, encoding: .utf8)
        try "body{}".write(toFile: root + "/css/site.css", atomically: false, encoding: .utf8)
        try "{}".write(toFile: root + "/.well-known/apple-app-site-association", atomically: false, encoding: .utf8)
        try "secret".write(toFile: root + "/.env", atomically: false, encoding: .utf8)
        try "outside".write(toFile: scratch + "/outside.txt", atomically: false, encoding: .utf8)
        try fm.createSymbolicLink(atPath: root + "/escape.txt", withDestinationPath: scratch + "/outside.txt")
    }

    deinit { try? FileManager.default.removeItem(atPath: scratch) }

    func app() -> Application {
        let root = root
        return makeTestApp { app in
            app.middleware.append(ConditionalRequestMiddleware())
            app.middleware.append(FileMiddleware(publicDirectory: root))
        }
    }

    @Test func servesFilesWithTypesAndValidators() throws {
        let app = app()
        let css = try app.test(.GET, "/css/site.css")
        #expect(css.status == .ok)
        #expect(css.bodyString == "body{}")
        #expect(css.headers.first(name: "Content-Type") == "text/css; charset=utf-8")
        let etag = try #require(css.headers.first(name: "ETag"))
        #expect(css.headers.first(name: "Last-Modified") != nil)
        #expect(try app.test(.GET, "/css/site.css", headers: ["If-None-Match": etag]).status == .notModified)
        #expect(try app.test(.GET, "/").bodyString == "<h1>home</h1>")
    }

    @Test func appleAppSiteAssociationIsJSON() throws {
        let res = try app().test(.GET, "/.well-known/apple-app-site-association")
        #expect(res.status == .ok)
        #expect(res.headers.first(name: "Content-Type") == "application/json")
    }

    @Test func routesWinOverFiles() throws {
        #expect(try app().test(.GET, "/hello").bodyString == "hello")
    }

    @Test(arguments: [
        "/../etc/passwd", "/%2e%2e/%2e%2e/etc/passwd", "/css%2F..%2F..%2Fetc%2Fpasswd", "/.env",
        "/escape.txt", "/css/..%5C..%5Cetc", "/%2e%2e%2foutside.txt", "/css/%2e%2e/%2e%2e/outside.txt",
    ])
    func nothingOutsideThePublicDirectoryIsReachable(path: String) throws {
        let res = try app().test(.GET, path)
        #expect(res.status != .ok)
        #expect(!res.bodyString.contains("outside"))
        #expect(!res.bodyString.contains("secret"))
        #expect(!res.bodyString.contains("root:"))
    }

    @Test func onlyGetAndHeadServeFiles() throws {
        #expect(try app().test(.POST, "/css/site.css").status == .notFound)
    }
}

import Testing
@testable import HTTP

@Suite("Normalising request paths")
struct PathNormalizerTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var path: String
        var segments: [String]
        var trailingSlash: Bool
        var testDescription: String { path }
    }

    static let cases: [Case] = [
        .init(path: "/", segments: [], trailingSlash: false),
        .init(path: "/a/b", segments: ["a", "b"], trailingSlash: false),
        .init(path: "/a/b/", segments: ["a", "b"], trailingSlash: true),
        .init(path: "/a/./b/../c", segments: ["a", "c"], trailingSlash: false),
        .init(path: "/a/b/..", segments: ["a"], trailingSlash: true),
        .init(path: "/a/.", segments: ["a"], trailingSlash: true),
        .init(path: "/a/..", segments: [], trailingSlash: false),
        .init(path: "/../../etc/passwd", segments: ["etc", "passwd"], trailingSlash: false),
        .init(path: "/%2e%2e/%2e%2e/etc/passwd", segments: ["etc", "passwd"], trailingSlash: false),
        .init(path: "/a/%2E%2e/%2E/b", segments: ["b"], trailingSlash: false),
        .init(path: "/a%2Fb", segments: ["a/b"], trailingSlash: false),
        .init(path: "/a%2f..%2fb", segments: ["a/../b"], trailingSlash: false),
        .init(path: "//x//", segments: ["x"], trailingSlash: true),
        .init(path: "///", segments: [], trailingSlash: false),
        .init(path: "/a//../b", segments: ["b"], trailingSlash: false),
        .init(path: "/...", segments: ["..."], trailingSlash: false),
        .init(path: "/.hidden/..a", segments: [".hidden", "..a"], trailingSlash: false),
        .init(path: "/caf%C3%A9/%E2%82%AC", segments: ["café", "€"], trailingSlash: false),
        .init(path: "/a%20b/c+d", segments: ["a b", "c+d"], trailingSlash: false),
        .init(path: "/a%5C..%5Cb", segments: ["a\\..\\b"], trailingSlash: false),
        .init(path: "/%5C", segments: ["\\"], trailingSlash: false),
    ]

    @Test("A path normalises to its decoded segments", arguments: cases)
    func normalises(_ expected: Case) throws {
        let result = try PathNormalizer.normalize(expected.path)
        #expect(result.segments == expected.segments)
        #expect(result.hasTrailingSlash == expected.trailingSlash)
    }

    @Test("Invalid escapes, NUL and bytes that are not UTF-8 are 400",
          arguments: ["/%zz", "/a%", "/a%4", "/%4g", "/%00", "/a%00b", "/%c0%ae", "/%c0%ae%c0%ae/etc", "/%ff", "/%e2%82"])
    func rejects(_ path: String) {
        let error = #expect(throws: HTTPParseError.self) { _ = try PathNormalizer.normalize(path) }
        #expect(error?.status == .badRequest)
        #expect(parse("GET \(path) HTTP/1.1\r\nHost: a\r\n\r\n").status == 400)
    }

    @Test("The parser fills the head from the normalised path and keeps the raw target")
    func parserUsesNormaliser() throws {
        let head = try #require(parse("GET /v1/%2e%2e/stations/./12/?x=%41 HTTP/1.1\r\nHost: a\r\n\r\n").head)
        #expect(head.target == "/v1/%2e%2e/stations/./12/?x=%41")
        #expect(head.pathSegments == ["stations", "12"])
        #expect(head.hasTrailingSlash)
        #expect(head.rawQuery == "x=%41")
        #expect(head.path == "/stations/12")
    }

    @Test("A decoded slash is re-encoded when the path is joined again")
    func joinedPathKeepsEncodedSlash() throws {
        let head = try #require(parse("GET /files/a%2Fb HTTP/1.1\r\nHost: a\r\n\r\n").head)
        #expect(head.pathSegments == ["files", "a/b"])
        #expect(head.path == "/files/a%2Fb")
    }

    @Test("An empty query is present but empty, a missing one is nil")
    func emptyAndMissingQuery() {
        #expect(parse("GET /a? HTTP/1.1\r\nHost: a\r\n\r\n").head?.rawQuery == "")
        #expect(parse("GET /a HTTP/1.1\r\nHost: a\r\n\r\n").head?.rawQuery == .some(nil))
        #expect(parse("GET /?a=1?b HTTP/1.1\r\nHost: a\r\n\r\n").head?.rawQuery == "a=1?b")
    }
}

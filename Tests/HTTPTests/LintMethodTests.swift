import Testing
@testable import HTTP

/// Found by schemathesis' `unsupported_method` check: TRACE answered 501 (a 5xx) where RFC 9110 §15.5.6
/// and the OpenAPI description promise 405 with `Allow` for a known method the resource does not support.
@Suite struct LintMethodTests {
    @Test func traceOnARouteIs405WithAllow() throws {
        let res = try makeTestApp().test(.TRACE, "/hello")
        #expect(res.status == .methodNotAllowed)
        #expect(res.headers.first(name: "Allow") == "GET, HEAD, OPTIONS")
    }

    @Test func traceOnAnUnknownPathIs404() throws {
        #expect(try makeTestApp().test(.TRACE, "/missing").status == .notFound)
    }

    @Test func unknownMethodTokensStay501() throws {
        #expect(try makeTestApp().test(.other("PURGE"), "/hello").status == .notImplemented)
        #expect(!HTTPMethod.CONNECT.isImplemented)
    }
}

/// Found by schemathesis' `unsupported_method` check, which also sends QUERY (the IETF's safe method with a
/// body): a server that knows the method exists says which methods the resource takes (405 + `Allow`).
@Suite struct LintQueryMethodTests {
    @Test func queryOnARouteIs405WithAllow() throws {
        let res = try makeTestApp().test(.other("QUERY"), "/hello")
        #expect(res.status == .methodNotAllowed)
        #expect(res.headers.first(name: "Allow") == "GET, HEAD, OPTIONS")
    }
}

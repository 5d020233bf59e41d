import Testing
@testable import HTTP

@Suite struct HeaderTokenTests {
    static let values = [
        "close", "Close", "CLOSE", " close ", "\tclose\t", "keep-alive, close", "Keep-Alive,Upgrade", "upgrade,  close",
        "closed", "clos e", "xclose", "close,", ",close", ",", "", "  ", "keep-alive", "Keep-Alive , TE", "close-ish",
        "ÇLOSE", "cl\u{0}ose",
    ]

    @Test(arguments: values) func containsTokenAgreesWithTheTokenList(_ value: String) {
        let headers = HTTPHeaders([("Host", "x"), ("connection", value)])
        for token in ["close", "keep-alive"] {
            let listed = headers.tokens(name: "Connection").contains(token)
            let found = token == "close"
                ? headers.containsToken("close", name: "Connection")
                : headers.containsToken("keep-alive", name: "Connection")
            #expect(found == listed, "\(token) in \(value.debugDescription)")
        }
    }

    @Test func everyFieldOfTheNameCounts() {
        let headers = HTTPHeaders([("Connection", "Upgrade"), ("Other", "close"), ("CONNECTION", "Close")])
        #expect(headers.containsToken("close", name: "Connection"))
        #expect(!headers.containsToken("keep-alive", name: "Connection"))
        #expect(!HTTPHeaders([("Other", "close")]).containsToken("close", name: "Connection"))
    }

    @Test func keepAliveFollowsTheConnectionTokensAndTheVersion() throws {
        let parser = HTTPRequestParser()
        func keepsAlive(_ text: String) throws -> Bool {
            guard case .complete(let head, _, _) = parser.parse(Array(text.utf8)) else {
                Issue.record("did not parse: \(text.debugDescription)")
                return false
            }
            return head.wantsKeepAlive
        }
        #expect(try keepsAlive("GET / HTTP/1.1\r\nHost: a\r\n\r\n"))
        #expect(try !keepsAlive("GET / HTTP/1.1\r\nHost: a\r\nConnection: keep-alive, CLOSE\r\n\r\n"))
        #expect(try !keepsAlive("GET / HTTP/1.0\r\nHost: a\r\n\r\n"))
        #expect(try keepsAlive("GET / HTTP/1.0\r\nHost: a\r\nConnection: Keep-Alive\r\n\r\n"))
        #expect(try keepsAlive("GET / HTTP/1.1\r\nHost: a\r\nConnection: closed\r\n\r\n"))
    }
}

import Testing
@testable import HTTP

/// `If-Modified-Since` in each form a client may send (RFC 9110 §5.6.7): recipients must read all three.
@Suite struct HTTPDateTests {
    static let instant = 784_111_777 // Sun, 06 Nov 1994 08:49:37 GMT, RFC 9110's example

    @Test(arguments: ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"])
    func everyHTTPDateFormIsRead(text: String) {
        #expect(HTTPDate.unixTime(from: text) == Self.instant)
    }

    @Test func aTwoDigitYearIsTheMostRecentPastOne() {
        #expect(HTTPDate.unixTime(from: "Thursday, 03-Dec-26 20:00:00 GMT") == HTTPDate.unixTime(from: "Thu, 03 Dec 2026 20:00:00 GMT"))
        #expect(HTTPDate.unixTime(from: "Monday, 01-Jan-70 00:00:00 GMT") == 0)
    }

    @Test(arguments: ["", "Sun, 06 Nov 1994 08:49:37 UTC", "Sunday, 06-Nov-1994 08:49:37 GMT", "Sun Nov 6 25:49:37 1994",
                      "Sun, 32 Nov 1994 08:49:37 GMT", "Sun, 06 Nox 1994 08:49:37 GMT", "yesterday",
                      "Sun, 06 Nov 99999999999 08:49:37 GMT", "Sun Nov 6 08:49:37 99999999999", "Sun, 06 Nov -5 08:49:37 GMT"])
    func anythingElseIsNoDate(text: String) {
        #expect(HTTPDate.unixTime(from: text) == nil)
    }

    @Test func theIMFFixdateRoundTrips() {
        #expect(HTTPDate.string(fromUnixTime: Self.instant) == "Sun, 06 Nov 1994 08:49:37 GMT")
    }
}

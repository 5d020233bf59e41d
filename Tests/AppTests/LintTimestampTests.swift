import Foundation
import HTTP
import Testing
@testable import API
@testable import App

/// Found by schemathesis' `response_schema_conformance` check: `since=0056-01-26T03:18:20Z` was echoed in
/// `meta.since` as `56-01-26T03:18:20Z`, which is not an RFC 3339 `date-time`.
@Suite struct LintTimestampTests {
    @Test func yearsBelow1000KeepFourDigits() throws {
        let date = try #require(ISOTimestamp.parse("0056-01-26T03:18:20.33Z"))
        #expect(ISOTimestamp.string(date) == "0056-01-26T03:18:20Z")
        #expect(ISOTimestamp.string(try #require(ISOTimestamp.parse("0000-01-01T00:00:00Z"))) == "0000-01-01T00:00:00Z")
    }

    @Test func instantsOutsideFourDigitYearsAreClamped() throws {
        let before = try #require(ISOTimestamp.parse("0000-01-01T00:00:00+01:00"))
        #expect(ISOTimestamp.string(before) == "0000-01-01T00:00:00Z")
        let after = try #require(ISOTimestamp.parse("9999-12-31T23:59:59-01:00"))
        #expect(ISOTimestamp.string(after) == "9999-12-31T23:59:59Z")
    }

    @Test func changesEchoesAnEarlySinceAsADateTime() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let res = try app.test(.GET, "/v1/prices/changes?since=0056-01-26T03%3A18%3A20.33Z&limit=1")
        #expect(res.status == .ok)
        let meta = try require(try AppTestSupport.json(res)["meta"] as? [String: Any])
        #expect(meta["since"] as? String == "0056-01-26T03:18:20Z")
    }
}

import Foundation
import Testing
@testable import Providers

@Suite struct WireTimeTests {
    @Test func dayNumbersRoundTripAcrossLeapYearsAndTheEpoch() {
        #expect(WireTime.days(year: 1970, month: 1, day: 1) == 0)
        #expect(WireTime.days(year: 2000, month: 3, day: 1) == 11_017)
        #expect(WireTime.days(year: 1969, month: 12, day: 31) == -1)
        for days in stride(from: -800_000, through: 800_000, by: 997) {
            let (y, m, d) = WireTime.civil(days: days)
            #expect(WireTime.days(year: y, month: m, day: d) == days)
        }
        #expect(WireTime.dayString(days: WireTime.days(year: 2024, month: 2, day: 29)) == "2024-02-29")
    }

    @Test(arguments: [
        ("14/01/2026 22:51:45", "2026-01-14T22:51:45Z"),
        ("2026-08-25 08:12:18", "2026-08-25T08:12:18Z"),
        ("2021-01-06T22:55:00", "2021-01-06T22:55:00Z"),
        ("2026-08-20T20:00:00Z", "2026-08-20T20:00:00Z"),
        ("29/02/2024 00:00:00", "2024-02-29T00:00:00Z"),
    ])
    func wireTimestampsParseAsUTC(text: String, expected: String) {
        #expect(WireTime.utcDate(text) == Fixture.instant(expected))
    }

    @Test func fractionsOfUpToSevenDigitsAreKept() throws {
        let base = try #require(WireTime.naiveSeconds("2025-08-12T01:19:35Z"))
        #expect(WireTime.naiveSeconds("2025-08-12T01:19:35.536Z") == base + 0.536)
        #expect(WireTime.naiveSeconds("2021-03-02T04:01:24.13") == (try #require(WireTime.naiveSeconds("2021-03-02T04:01:24"))) + 0.13)
    }

    @Test(arguments: ["", "yesterday", "31/02/2026 10:00:00", "2026-13-01 00:00:00", "2026-01-01 24:00:00", "2026-01-01T00:00", "2026-01-01T00:00:00.", "2026-01-01T00:00:00+08:00", "2026-01-01T00:00:00Zjunk", "１４/01/2026 22:51:45"])
    func malformedTimestampsAreRejected(text: String) {
        #expect(WireTime.naiveSeconds(text) == nil)
    }

    @Test func isoDaysAreValidated() {
        #expect(WireTime.days(isoDay: " 2019-11-03\r\n") == WireTime.days(year: 2019, month: 11, day: 3))
        #expect(WireTime.days(isoDay: "2019-02-29") == nil)
        #expect(WireTime.days(isoDay: "03/11/2019") == nil)
    }

    @Test func perthPricingDaysTurnOverAtSixInTheMorning() {
        let day = WireTime.days(year: 2026, month: 4, day: 22)
        #expect(PerthTime.pricingStart(days: day) == Fixture.instant("2026-04-22T06:00:00+08:00"))
        #expect(PerthTime.pricingDay(at: Fixture.instant("2026-04-22T06:00:00+08:00")) == day)
        #expect(PerthTime.pricingDay(at: Fixture.instant("2026-04-22T05:59:59+08:00")) == day - 1)
        #expect(PerthTime.pricingDay(at: Fixture.instant("2026-04-22T23:59:59+08:00")) == day)
    }
}

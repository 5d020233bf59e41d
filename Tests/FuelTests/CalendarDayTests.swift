import Foundation
import Testing

@testable import Fuel

@Suite struct CalendarDayTests {
    @Test func parsesAndFormatsIsoDays() {
        #expect(CalendarDay("2026-01-15")?.description == "2026-01-15")
        #expect(CalendarDay("1970-01-01")?.dayNumber == 0)
        #expect(CalendarDay("2024-02-29") != nil)
        #expect(CalendarDay("2026-02-29") == nil)
        #expect(CalendarDay("2026-1-15") == nil)
        #expect(CalendarDay("2026-13-01") == nil)
    }

    @Test func agreesWithFoundationsCalendarOverManyYears() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        for dayNumber in stride(from: -1_000, to: 40_000, by: 37) {
            let date = Date(timeIntervalSince1970: Double(dayNumber) * 86_400)
            let parts = calendar.dateComponents([.year, .month, .day], from: date)
            let day = CalendarDay(dayNumber: dayNumber)
            #expect(day.components == (parts.year!, parts.month!, parts.day!))
            #expect(CalendarDay(day.description) == day)
        }
    }

    @Test func dayBoundariesFollowDaylightSavingInSydney() {
        // AEDT (UTC+11) in January, AEST (UTC+10) in July.
        let sydney = AustralianState.NSW.zone
        #expect(CalendarDay(containing: Fixture.date("2026-01-14T12:59:59Z"), in: sydney).description == "2026-01-14")
        #expect(CalendarDay(containing: Fixture.date("2026-01-14T13:00:00Z"), in: sydney).description == "2026-01-15")
        #expect(CalendarDay(containing: Fixture.date("2026-07-14T14:00:00Z"), in: sydney).description == "2026-07-15")
        #expect(CalendarDay("2026-07-15")!.instant(hour: 0, in: sydney) == Fixture.date("2026-07-14T14:00:00Z"))
    }
}

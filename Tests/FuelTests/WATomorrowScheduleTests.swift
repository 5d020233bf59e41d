import Foundation
import Testing

@testable import Fuel

/// 14:30 Perth on 2026-04-22 opens the search for 2026-04-23's prices; it closes at 06:00 on the 23rd.
@Suite struct WATomorrowScheduleTests {
    static func perth(_ day: String, _ hour: Int, _ minute: Int = 0) -> Date {
        CalendarDay(day)!.instant(hour: hour, minute: minute, in: WATradingDay.zone)
    }

    @Test func nothingIsSoughtBefore1430AndEverythingFromIt() {
        #expect(!WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 14, 29), held: false, lastAttempt: nil))
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 14, 30), held: false, lastAttempt: nil))
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 14, 31), held: false, lastAttempt: nil))
        #expect(WATomorrowSchedule.nextAttempt(after: Self.perth("2026-04-22", 14, 29), held: false, lastAttempt: nil)
            == Self.perth("2026-04-22", 14, 30))
    }

    @Test func aServerStartedAfter1600StillFetchesOnItsFirstPoll() {
        // The old window closed at 16:00: a start at 16:01 or 20:00 waited for the next afternoon.
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 15, 59), held: false, lastAttempt: nil))
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 16, 1), held: false, lastAttempt: nil))
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 20, 0), held: false, lastAttempt: nil))
        // An attempt from yesterday's window does not count against today's.
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 20, 0), held: false, lastAttempt: Self.perth("2026-04-22", 5, 50)))
    }

    @Test func retriesEveryTenMinutesUntil1800ThenEveryThirty() {
        let at1759 = Self.perth("2026-04-22", 17, 59)
        let at1801 = Self.perth("2026-04-22", 18, 1)
        #expect(WATomorrowSchedule.nextAttempt(after: at1759, held: false, lastAttempt: at1759) == Self.perth("2026-04-22", 18, 9))
        #expect(WATomorrowSchedule.nextAttempt(after: at1801, held: false, lastAttempt: at1801) == Self.perth("2026-04-22", 18, 31))
        #expect(!WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 18, 8), held: false, lastAttempt: at1759))
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 18, 9), held: false, lastAttempt: at1759))
        #expect(!WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 18, 30), held: false, lastAttempt: at1801))
        #expect(WATomorrowSchedule.isDue(at: Self.perth("2026-04-22", 18, 31), held: false, lastAttempt: at1801))
    }

    @Test func pastMidnightItKeepsTryingUntil0600ThenStops() {
        let at0559 = Self.perth("2026-04-23", 5, 59)
        let at0601 = Self.perth("2026-04-23", 6, 1)
        #expect(WATomorrowSchedule.isDue(at: at0559, held: false, lastAttempt: Self.perth("2026-04-23", 5, 29)))
        #expect(WATomorrowSchedule.window(at: at0559) != nil)
        // 06:01: the 23rd's prices are today's now; the 24th's are not due before 14:30.
        #expect(WATomorrowSchedule.window(at: at0601) == nil)
        #expect(!WATomorrowSchedule.isDue(at: at0601, held: false, lastAttempt: nil))
        // No retry is planned past the rollover: the next attempt is the next publication.
        #expect(WATomorrowSchedule.nextAttempt(after: Self.perth("2026-04-23", 5, 40), held: false, lastAttempt: Self.perth("2026-04-23", 5, 40))
            == Self.perth("2026-04-23", 14, 30))
    }

    @Test func heldPricesAreNotAskedForAgain() {
        let at2000 = Self.perth("2026-04-22", 20, 0)
        #expect(!WATomorrowSchedule.isDue(at: at2000, held: true, lastAttempt: nil))
        #expect(WATomorrowSchedule.nextAttempt(after: at2000, held: true, lastAttempt: nil) == Self.perth("2026-04-23", 14, 30))
    }
}

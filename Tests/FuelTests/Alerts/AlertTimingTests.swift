import Foundation
import Testing
import Fuel

/// Quiet hours and daily delivery on injected instants, in real zones, across midnight and daylight-saving changes.
struct AlertTimingTests {
    let sydney = TimeZone(identifier: "Australia/Sydney")!
    let perth = TimeZone(identifier: "Australia/Perth")!
    let night = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!)

    func utc(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    @Test func quietHoursAcrossMidnightIncludeTheirStartAndExcludeTheirEnd() {
        #expect(!night.contains(TimeOfDay("21:59")!))
        #expect(night.contains(TimeOfDay("22:00")!))
        #expect(night.contains(TimeOfDay("00:00")!))
        #expect(night.contains(TimeOfDay("06:59")!))
        #expect(!night.contains(TimeOfDay("07:00")!))
        let day = QuietHours(from: TimeOfDay("13:00")!, to: TimeOfDay("14:00")!)
        #expect(!day.contains(TimeOfDay("12:59")!) && day.contains(TimeOfDay("13:00")!) && !day.contains(TimeOfDay("14:00")!))
        #expect(!QuietHours(from: TimeOfDay("07:00")!, to: TimeOfDay("07:00")!).contains(TimeOfDay("07:00")!))
    }

    @Test func aPushDecidedInQuietHoursWaitsForTheirLocalEnd() {
        // 23:00 in Perth (UTC+8) on 1 December: deferred to 07:00 on the 2nd.
        #expect(night.deliveryTime(for: utc("2026-12-01T15:00:00Z"), in: perth) == utc("2026-12-01T23:00:00Z"))
        // 21:59 is before the quiet hours: sent at once.
        #expect(night.deliveryTime(for: utc("2026-12-01T13:59:00Z"), in: perth) == utc("2026-12-01T13:59:00Z"))
    }

    /// Sydney's clocks go forward at 02:00 on 4 October 2026: the night is an hour shorter, and 07:00 AEDT is 20:00 UTC.
    @Test func quietHoursEndAtLocalSevenAcrossTheSpringForwardNight() {
        let lateEvening = utc("2026-10-03T13:00:00Z") // 23:00 AEST
        #expect(night.deliveryTime(for: lateEvening, in: sydney) == utc("2026-10-03T20:00:00Z"))
        #expect(night.deliveryTime(for: utc("2026-10-03T19:59:00Z"), in: sydney) == utc("2026-10-03T20:00:00Z"), "06:59 AEDT is quiet")
        #expect(night.deliveryTime(for: utc("2026-10-03T20:00:00Z"), in: sydney) == utc("2026-10-03T20:00:00Z"), "07:00 AEDT is not")
    }

    /// Sydney's clocks go back at 03:00 on 5 April 2026: the night is an hour longer, and 07:00 AEST is 21:00 UTC.
    @Test func quietHoursEndAtLocalSevenAcrossTheFallBackNight() {
        #expect(night.deliveryTime(for: utc("2026-04-04T12:00:00Z"), in: sydney) == utc("2026-04-04T21:00:00Z"))
        #expect(night.deliveryTime(for: utc("2026-04-04T20:59:00Z"), in: sydney) == utc("2026-04-04T21:00:00Z"))
    }

    @Test func theDailySummaryIsDueAt0730LocalAndTheNextDayOnceThatHasPassed() {
        let at = TimeOfDay("07:30")!
        #expect(at.nextOccurrence(onOrAfter: utc("2026-12-01T23:29:59Z"), in: perth) == utc("2026-12-01T23:30:00Z"))
        #expect(at.nextOccurrence(onOrAfter: utc("2026-12-01T23:30:00Z"), in: perth) == utc("2026-12-01T23:30:00Z"))
        #expect(at.nextOccurrence(onOrAfter: utc("2026-12-01T23:30:01Z"), in: perth) == utc("2026-12-02T23:30:00Z"))
    }

    @Test func theDailySummaryFollowsTheLocalClockOverADaylightSavingChange() {
        let at = TimeOfDay("07:30")!
        // 07:30 AEST on 3 October is 21:30 UTC; 07:30 AEDT on 4 October is 20:30 UTC.
        #expect(at.nextOccurrence(onOrAfter: utc("2026-10-02T21:31:00Z"), in: sydney) == utc("2026-10-03T20:30:00Z"))
    }

    /// 02:30 does not exist in Sydney on 4 October 2026 (02:00 AEST jumps to 03:00 AEDT, 16:00 UTC): the jump is
    /// the first instant past it, so quiet hours ending at 02:30 end at 03:00 AEDT, not an hour later.
    @Test func aTimeTheClocksSkipIsTheJump() {
        let skipped = TimeOfDay("02:30")!
        #expect(skipped.nextOccurrence(onOrAfter: utc("2026-10-03T14:00:00Z"), in: sydney) == utc("2026-10-03T16:00:00Z"), "from midnight AEST")
        #expect(skipped.nextOccurrence(onOrAfter: utc("2026-10-03T15:59:00Z"), in: sydney) == utc("2026-10-03T16:00:00Z"), "01:59 AEST")
        #expect(skipped.nextOccurrence(onOrAfter: utc("2026-10-03T16:00:01Z"), in: sydney) == utc("2026-10-04T15:30:00Z"), "past it: 02:30 AEDT the next day")
        let quiet = QuietHours(from: TimeOfDay("22:00")!, to: skipped)
        #expect(quiet.deliveryTime(for: utc("2026-10-03T13:00:00Z"), in: sydney) == utc("2026-10-03T16:00:00Z"), "23:00 AEST waits for 03:00 AEDT")
    }

    /// Clocks go back at 03:00 AEDT on 5 April 2026 (16:00 UTC) to 02:00 AEST: 02:30 happens at 15:30 and again at
    /// 16:30 UTC. Between the two passes the next 02:30 is the repeat that night, not the next day's.
    @Test func aTimeTheClocksRepeatCountsOnItsSecondPass() {
        let repeated = TimeOfDay("02:30")!
        #expect(repeated.nextOccurrence(onOrAfter: utc("2026-04-04T15:00:00Z"), in: sydney) == utc("2026-04-04T15:30:00Z"), "the first pass")
        #expect(repeated.nextOccurrence(onOrAfter: utc("2026-04-04T15:40:00Z"), in: sydney) == utc("2026-04-04T16:30:00Z"), "02:40 AEDT: the repeat")
        #expect(repeated.nextOccurrence(onOrAfter: utc("2026-04-04T16:30:00Z"), in: sydney) == utc("2026-04-04T16:30:00Z"))
        #expect(repeated.nextOccurrence(onOrAfter: utc("2026-04-04T16:30:01Z"), in: sydney) == utc("2026-04-05T16:30:00Z"), "past both: the next day")
        #expect(TimeOfDay("01:30")!.nextOccurrence(onOrAfter: utc("2026-04-04T14:31:00Z"), in: sydney) == utc("2026-04-05T15:30:00Z"),
                "01:30 happens once that night (14:30 UTC)")
        let quiet = QuietHours(from: TimeOfDay("22:00")!, to: repeated)
        #expect(quiet.deliveryTime(for: utc("2026-04-04T16:10:00Z"), in: sydney) == utc("2026-04-04T16:30:00Z"), "02:10 AEST waits 20 minutes")
        #expect(quiet.deliveryTime(for: utc("2026-04-04T15:10:00Z"), in: sydney) == utc("2026-04-04T15:30:00Z"), "02:10 AEDT: the first 02:30")
    }
}

struct BurstFoldingTests {
    let rule = BurstFolding()
    let now = Date(timeIntervalSince1970: 1_800_000_000)

    @Test func threeFitAnHourAndAFourthFoldsWithTheThirdIntoOne() {
        #expect(rule.plan(pendingCount: 3, recentSends: [], now: now) == .send(individually: [0, 1, 2], folded: []))
        #expect(rule.plan(pendingCount: 4, recentSends: [], now: now) == .send(individually: [0, 1], folded: [2, 3]))
        #expect(rule.plan(pendingCount: 9, recentSends: [], now: now) == .send(individually: [0, 1], folded: Array(2...8)))
    }

    @Test func sendsWithinTheLastHourCountAndOneExactlyAnHourAgoDoesNot() {
        let twoRecent = [now.addingTimeInterval(-3599), now.addingTimeInterval(-10)]
        #expect(rule.plan(pendingCount: 2, recentSends: twoRecent, now: now) == .send(individually: [], folded: [0, 1]))
        let oneAnHourAgo = [now.addingTimeInterval(-3600), now.addingTimeInterval(-10)]
        #expect(rule.plan(pendingCount: 2, recentSends: oneAnHourAgo, now: now) == .send(individually: [0, 1], folded: []))
    }

    @Test func aFullHourWaitsUntilItsOldestPushLeavesTheWindow() {
        let full = [now.addingTimeInterval(-1000), now.addingTimeInterval(-500), now.addingTimeInterval(-10)]
        #expect(rule.plan(pendingCount: 1, recentSends: full, now: now) == .wait(until: now.addingTimeInterval(2600)))
    }
}

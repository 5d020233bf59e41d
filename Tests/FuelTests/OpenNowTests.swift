import Foundation
import Testing
@testable import Fuel

/// `OpenNow`: local time of the station's state, both sides of every boundary, overnight hours, observations.
@Suite struct OpenNowTests {
    /// 2026-08-17 is a Monday. Melbourne is UTC+10 in August; Perth is UTC+8 all year.
    static func melbourne(_ day: Int, _ hour: Int, _ minute: Int, second: Int = 0) -> Date {
        var components = DateComponents(year: 2026, month: 8, day: day, hour: hour, minute: minute, second: second)
        components.timeZone = TimeZone(identifier: "Australia/Melbourne")
        return Calendar(identifier: .gregorian).date(from: components)!
    }

    /// Mon-Fri 06:00-22:00, Saturday 22:00-02:00 (overnight), Sunday closed.
    static let hours = WeeklyHours(days: Array(repeating: .open(from: 360, to: 1_320), count: 5) + [.open(from: 1_320, to: 120), .closed])!
    static let access = StationAccess(hours: hours)

    func open(_ instant: Date, _ access: StationAccess? = Self.access, state: AustralianState = .VIC) -> Bool? {
        OpenNow.isOpen(access, in: state, at: instant)
    }

    @Test func opensAtTheOpeningMinuteAndClosesAtTheClosingMinute() {
        #expect(open(Self.melbourne(17, 5, 59, second: 59)) == false)
        #expect(open(Self.melbourne(17, 6, 0)) == true)
        #expect(open(Self.melbourne(17, 21, 59, second: 59)) == true)
        #expect(open(Self.melbourne(17, 22, 0)) == false)
    }

    @Test func overnightHoursRunPastMidnightIntoTheNextDay() {
        #expect(open(Self.melbourne(22, 21, 59)) == false)  // Saturday before opening
        #expect(open(Self.melbourne(22, 22, 0)) == true)
        #expect(open(Self.melbourne(22, 23, 59, second: 59)) == true)
        #expect(open(Self.melbourne(23, 0, 0)) == true)  // Sunday (closed) still inside Saturday's hours
        #expect(open(Self.melbourne(23, 1, 59)) == true)
        #expect(open(Self.melbourne(23, 2, 0)) == false)
        #expect(open(Self.melbourne(23, 12, 0)) == false)
    }

    @Test func midnightBelongsToTheNewDay() {
        // Friday 22:00 closes; Saturday opens at 22:00; the midnight between is closed.
        #expect(open(Self.melbourne(21, 23, 59, second: 59)) == false)
        #expect(open(Self.melbourne(22, 0, 0)) == false)
        let allDayMonday = StationAccess(hours: WeeklyHours(days: [.allDay] + Array(repeating: .closed, count: 6))!)
        #expect(open(Self.melbourne(16, 23, 59, second: 59), allDayMonday) == false)  // Sunday
        #expect(open(Self.melbourne(17, 0, 0), allDayMonday) == true)
        #expect(open(Self.melbourne(17, 23, 59, second: 59), allDayMonday) == true)
        #expect(open(Self.melbourne(18, 0, 0), allDayMonday) == false)
    }

    @Test func theStatesLocalTimeDecidesNotUTC() {
        // 06:30 Melbourne is 04:30 in Perth: the same hours read open in VIC, closed in WA.
        let instant = Self.melbourne(17, 6, 30)
        #expect(open(instant, state: .VIC) == true)
        #expect(open(instant, state: .WA) == false)
    }

    @Test func open24hIsAlwaysOpenAndNothingPublishedIsUnknown() {
        #expect(open(Self.melbourne(23, 3, 0), StationAccess(open24h: true)) == true)
        #expect(open(Self.melbourne(23, 3, 0), nil) == nil)
        #expect(open(Self.melbourne(23, 3, 0), StationAccess(membershipRequired: true)) == nil)
    }

    @Test func aClosedNowObservationHoldsOnlyNearTheMomentItWasMade() {
        let observed = Self.melbourne(17, 10, 0)
        let closed = StationAccess(open24h: false, closedNow: true, observedAt: observed)
        #expect(open(observed, closed) == false)
        #expect(open(observed.addingTimeInterval(OpenNow.observationLifetime), closed) == false)
        #expect(open(observed.addingTimeInterval(OpenNow.observationLifetime + 1), closed) == nil)
        #expect(open(observed, StationAccess(closedNow: false, observedAt: observed)) == true)
    }

    @Test func weeklyHoursNeedSevenValidDays() {
        #expect(WeeklyHours(days: Array(repeating: .allDay, count: 6)) == nil)
        #expect(WeeklyHours(days: Array(repeating: .open(from: 0, to: 1_441), count: 7)) == nil)
    }

    /// `canTell` lets a list skip reading a station: where it says no, `isOpen` is nil at every instant; where it
    /// says yes, some instant gets an answer. Every combination of the access facts, over two weeks in steps.
    @Test func canTellIsFalseExactlyWhereIsOpenIsNilAtEveryInstant() {
        let observed = Self.melbourne(17, 12, 0)
        let instants = (0..<(14 * 48)).map { Self.melbourne(10, 0, 0).addingTimeInterval(Double($0) * 1_800) } + [observed]
        var told = 0, silent = 0
        for open24h in [nil, true, false] as [Bool?] {
            for members in [nil, true, false] as [Bool?] {
                for hours in [nil, Self.hours] as [WeeklyHours?] {
                    for closedNow in [nil, true, false] as [Bool?] {
                        for observedAt in [nil, observed] as [Date?] {
                            let access = StationAccess(
                                open24h: open24h, membershipRequired: members, truckStop: members, hours: hours,
                                closedNow: closedNow, observedAt: observedAt)
                            let answers = instants.map { open($0, access) }
                            if OpenNow.canTell(access) {
                                told += 1
                                #expect(answers.contains { $0 != nil }, "\(access)")
                            } else {
                                silent += 1
                                #expect(answers.allSatisfy { $0 == nil }, "\(access)")
                            }
                        }
                    }
                }
            }
        }
        #expect(!OpenNow.canTell(nil) && open(observed, nil) == nil)
        #expect(told > 50 && silent > 20, "\(told) told, \(silent) silent")
    }
}

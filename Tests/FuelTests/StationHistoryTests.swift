import Foundation
import Testing

@testable import Fuel

@Suite struct StationHistoryTests {
    let start = Fixture.date("2026-01-01T01:00:00Z")

    /// One NSW station whose U91 alternates between 180.0 and 181.0 every day for `days` days, plus one that never
    /// changes, recorded merge by merge.
    func recordedDaily(days: Int) -> (history: StationHistory, snapshot: Snapshot, registry: StationRegistry) {
        var snapshot = Snapshot.empty
        var registry = StationRegistry()
        var history = StationHistory()
        for day in 0..<days {
            let asOf = start.addingTimeInterval(Double(day) * 86_400)
            let update = ProviderUpdate(
                provider: .nsw, stations: [Fixture.station(.nsw, "1"), Fixture.station(.nsw, "2")],
                prices: [
                    Fixture.price(.nsw, "1", 1_800 + (day % 2) * 10, at: asOf),
                    Fixture.price(.nsw, "2", 1_900, at: start),
                ],
                asOf: asOf)
            let result = Fixture.merge(update, into: snapshot, registry: registry, at: asOf)
            snapshot = result.snapshot
            registry = result.registry
            history = history.recording(snapshot, provider: .nsw)
        }
        return (history, snapshot, registry)
    }

    @Test func everyChangeIsRecordedOnceAndRepeatsAreNot() throws {
        let (history, snapshot, registry) = recordedDaily(days: 10)
        let changing = try #require(registry.id(for: Fixture.key(.nsw, "1")))
        let steady = try #require(registry.id(for: Fixture.key(.nsw, "2")))
        let marks = history.marks(changing, .U91)
        #expect(marks.count == 10)
        let expectedTenths: [Int16] = (0..<10).map { day -> Int16 in day % 2 == 0 ? 1_800 : 1_810 }
        let expectedInstants: [Date] = (0..<10).map { day -> Date in start.addingTimeInterval(Double(day) * 86_400) }
        #expect(marks.map(\.tenths) == expectedTenths)
        #expect(marks.map(\.at) == expectedInstants)
        #expect(history.marks(steady, .U91).count == 1)
        #expect(history.marks(changing, .DL).isEmpty)
        // Recording the same snapshot again adds nothing.
        #expect(history.recording(snapshot, provider: .nsw) == history)
    }

    @Test func ninetyDaysAreKeptAndMarksBeyondTheRetentionAreDropped() throws {
        let (history, snapshot, registry) = recordedDaily(days: 150)
        let asOf = try #require(snapshot.asOf(.nsw))
        let marks = history.marks(try #require(registry.id(for: Fixture.key(.nsw, "1"))), .U91)
        let retention = Double(StationHistory.retentionDays) * 86_400
        // The oldest mark kept is the price in effect when the retention window opens; every later one is inside it.
        #expect(marks[0].at <= asOf.addingTimeInterval(-retention))
        #expect(marks[1].at > asOf.addingTimeInterval(-retention))
        #expect(marks[0].at > asOf.addingTimeInterval(-retention - 86_400))
        #expect(marks.count == StationHistory.retentionDays + 1)
        #expect(StationHistory.retentionDays >= StationHistory.minimumDays && StationHistory.retentionDays <= 120)
        let window = StationPriceWindow(marks: marks, state: .NSW, through: CalendarDay("2026-05-30")!, days: 90)
        #expect(window.daily.count == 90)
        #expect(window.changes.count == 90)
        // A price that has not moved for 150 days keeps its one mark.
        #expect(history.marks(try #require(registry.id(for: Fixture.key(.nsw, "2"))), .U91).count == 1)
    }

    @Test func marksPackTheInstantToTheSecondAndClampOutOfRangeValues() {
        let instant = Fixture.date("2026-01-14T22:51:45Z")
        let mark = PriceMark(at: instant, price: PriceTenths(tenths: 1_899))
        #expect(mark.at == instant)
        #expect(mark.price == PriceTenths(tenths: 1_899))
        #expect(MemoryLayout<PriceMark>.stride == 8)
        #expect(PriceMark(at: Fixture.date("2019-01-01T00:00:00Z"), price: PriceTenths(tenths: 99_999)) == PriceMark(seconds: 0, tenths: .max))
    }

    @Test func tracksSharingStorageNeverSeeEachOthersMarks() {
        let mark = { (seconds: Int32) in PriceMark(seconds: seconds, tenths: Int16(1_000 + seconds)) }
        var base = PriceTrack([mark(1), mark(2)])
        for seconds in 3...20 { base.append(mark(Int32(seconds))) }
        var left = base, right = base
        left.append(mark(100))
        right.append(mark(200))
        right.append(mark(201))
        #expect(base.marks == (1...20).map { mark(Int32($0)) })
        #expect(left.marks == base.marks + [mark(100)])
        #expect(right.marks == base.marks + [mark(200), mark(201)])
        var pruned = right
        pruned.removeFirst(15)
        #expect(pruned.marks == Array(right.marks.dropFirst(15)))
        #expect(right.count == 22 && pruned.count == 7)
        pruned.append(mark(300))
        #expect(right.marks.last == mark(201) && pruned.marks.last == mark(300))
    }

    // MARK: Daily buckets

    func mark(_ text: String, _ tenths: Int) -> PriceMark { PriceMark(at: Fixture.date(text), price: PriceTenths(tenths: tenths)) }

    func days(_ window: StationPriceWindow) -> [String] { window.daily.map(\.day.description) }

    @Test func perthDaysRunFromSixInTheMorning() {
        // 21:59Z is 05:59 in Perth on the 27th: still the 26th's trading day. 22:01Z is 06:01: the 27th's.
        let marks = [mark("2026-03-25T02:00:00Z", 1_900), mark("2026-03-26T21:59:00Z", 1_800), mark("2026-03-26T22:01:00Z", 2_000)]
        let window = StationPriceWindow(marks: marks, state: .WA, through: CalendarDay("2026-03-28")!, days: 3)
        #expect(days(window) == ["2026-03-26", "2026-03-27", "2026-03-28"])
        #expect(window.daily[0] == .init(day: CalendarDay("2026-03-26")!, low: PriceTenths(tenths: 1_800), high: PriceTenths(tenths: 1_900), close: PriceTenths(tenths: 1_800)))
        #expect(window.daily[1] == .init(day: CalendarDay("2026-03-27")!, low: PriceTenths(tenths: 1_800), high: PriceTenths(tenths: 2_000), close: PriceTenths(tenths: 2_000)))
        #expect(window.daily[2] == .init(day: CalendarDay("2026-03-28")!, low: PriceTenths(tenths: 2_000), high: PriceTenths(tenths: 2_000), close: PriceTenths(tenths: 2_000)))
        // The change before the window only carries its price in.
        #expect(window.changes == Array(marks.dropFirst()))
        // By calendar midnight (any other state) the 21:59Z change would already be the 27th's.
        let midnight = StationPriceWindow(marks: marks, state: .NT, through: CalendarDay("2026-03-28")!, days: 3)
        #expect(midnight.daily[0].close == PriceTenths(tenths: 1_900))
    }

    /// FuelWatch prices change at 06:00 exactly, the trading day's first instant: the price before was never in
    /// effect that day, so it is neither its high nor its low. A second later, it was (for that second).
    @Test func aChangeAtTheDaysFirstInstantOpensTheDayAtItsOwnPrice() {
        let atSix = [mark("2026-04-16T22:00:00Z", 2_499), mark("2026-04-17T22:00:00Z", 1_919)]
        let window = StationPriceWindow(marks: atSix, state: .WA, through: CalendarDay("2026-04-18")!, days: 2)
        #expect(window.daily.map(\.day.description) == ["2026-04-17", "2026-04-18"])
        #expect(window.daily[1] == .init(day: CalendarDay("2026-04-18")!, low: PriceTenths(tenths: 1_919), high: PriceTenths(tenths: 1_919), close: PriceTenths(tenths: 1_919)))
        let afterSix = [mark("2026-04-16T22:00:00Z", 2_499), mark("2026-04-17T22:00:01Z", 1_919)]
        #expect(StationPriceWindow(marks: afterSix, state: .WA, through: CalendarDay("2026-04-18")!, days: 2).daily[1].high == PriceTenths(tenths: 2_499))
        // Local midnight elsewhere: 00:00 AEST on 18 April 2026 is 14:00Z on the 17th.
        let atMidnight = [mark("2026-04-16T02:00:00Z", 2_099), mark("2026-04-17T14:00:00Z", 1_899)]
        #expect(StationPriceWindow(marks: atMidnight, state: .NSW, through: CalendarDay("2026-04-18")!, days: 2).daily[1].high == PriceTenths(tenths: 1_899))
        let beforeMidnight = [mark("2026-04-16T02:00:00Z", 2_099), mark("2026-04-17T13:59:59Z", 1_899)]
        #expect(StationPriceWindow(marks: beforeMidnight, state: .NSW, through: CalendarDay("2026-04-18")!, days: 2).daily[1].high == PriceTenths(tenths: 1_899))
    }

    @Test func sydneyDaysFollowLocalMidnightAcrossBothDaylightSavingChanges() {
        // DST ends 5 Apr 2026: midnight starting the 6th is 14:00Z (AEST), not 13:00Z (AEDT).
        let april = [mark("2026-04-04T12:30:00Z", 1_900), mark("2026-04-05T13:30:00Z", 1_800), mark("2026-04-05T14:30:00Z", 1_700)]
        let end = StationPriceWindow(marks: april, state: .NSW, through: CalendarDay("2026-04-06")!, days: 2)
        #expect(days(end) == ["2026-04-05", "2026-04-06"])
        #expect(end.daily[0].low == PriceTenths(tenths: 1_800) && end.daily[0].close == PriceTenths(tenths: 1_800))
        #expect(end.daily[1].close == PriceTenths(tenths: 1_700) && end.daily[1].high == PriceTenths(tenths: 1_800))
        // DST starts 4 Oct 2026: midnight starting the 5th is 13:00Z (AEDT).
        let october = [mark("2026-10-04T12:30:00Z", 1_900), mark("2026-10-04T13:30:00Z", 1_800)]
        let start = StationPriceWindow(marks: october, state: .NSW, through: CalendarDay("2026-10-05")!, days: 2)
        #expect(days(start) == ["2026-10-04", "2026-10-05"])
        #expect(start.daily[0].close == PriceTenths(tenths: 1_900))
        #expect(start.daily[1].low == PriceTenths(tenths: 1_800) && start.daily[1].high == PriceTenths(tenths: 1_900))
    }

    @Test func melbourneDaysFollowLocalMidnight() {
        // 14 Jan is AEDT (UTC+11): 12:59Z is 23:59 on the 14th, 13:01Z is 00:01 on the 15th.
        let marks = [mark("2026-01-14T12:59:00Z", 1_900), mark("2026-01-14T13:01:00Z", 1_850)]
        let window = StationPriceWindow(marks: marks, state: .VIC, through: CalendarDay("2026-01-15")!, days: 30)
        #expect(days(window) == ["2026-01-14", "2026-01-15"])
        #expect(window.daily.map(\.close) == [PriceTenths(tenths: 1_900), PriceTenths(tenths: 1_850)])
    }

    @Test func aWindowBeforeAnyPriceOrWithoutMarksIsEmpty() {
        #expect(StationPriceWindow(marks: [], state: .NSW, through: CalendarDay("2026-01-15")!, days: 30).daily.isEmpty)
        let later = StationPriceWindow(marks: [mark("2026-02-01T00:00:00Z", 1_900)], state: .NSW, through: CalendarDay("2026-01-15")!, days: 30)
        #expect(later.daily.isEmpty && later.changes.isEmpty)
    }
}

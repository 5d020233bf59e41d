import Foundation
import Testing

@testable import Fuel

/// Each trend point is labelled by the day its capture describes.
@Suite struct HistoryDayTests {
    /// 06:00 Perth on 2026-04-23 (a trading day's start) and 02:00 Perth on 04-24 (still that trading day).
    let tradingDayStart = Fixture.date("2026-04-22T22:00:00Z")
    let beforeSixNextMorning = Fixture.date("2026-04-23T18:00:00Z")

    @Test func aWACaptureBetweenMidnightAndSixIsThePreviousTradingDay() {
        let update = ProviderUpdate(
            provider: .wa, stations: [Fixture.station(.wa, "1", state: .WA)],
            prices: [Fixture.price(.wa, "1", 1_899, at: tradingDayStart)], asOf: beforeSixNextMorning)
        let (dataset, report) = Dataset().merging(update, at: beforeSixNextMorning)
        #expect(report.isApplied)
        let days = dataset.history.points(state: .WA, fuel: .U91).map(\.day)
        #expect(days == ["2026-04-23"])
        #expect(HistoryDay.of(asOf: beforeSixNextMorning, state: .WA).description == "2026-04-23")
        #expect(HistoryDay.of(asOf: beforeSixNextMorning.addingTimeInterval(4 * 3_600), state: .WA).description == "2026-04-24")
    }

    @Test func aVICCaptureDescribesTheDayBeforeIt() {
        // The file vic_prices_2026-07-27 was archived at 14:00 UTC, local midnight starting 07-28. A day behind,
        // its data runs to midnight starting 07-27: it describes 07-26 (its prices are 07-26's, plus four set
        // after midnight, which moved the old label to 07-27).
        let midnight = Fixture.date("2026-07-27T14:00:00Z")
        #expect(HistoryDay.described(capturedAt: midnight, provider: .vic, state: .VIC).description == "2026-07-26")
        let nextMidnight = Fixture.date("2026-07-28T14:00:00Z")
        #expect(HistoryDay.described(capturedAt: nextMidnight, provider: .vic, state: .VIC).description == "2026-07-27")
        // A mid-morning poll on 07-28 holds 07-27's prices.
        let morning = Fixture.date("2026-07-28T00:30:00Z")
        #expect(HistoryDay.described(capturedAt: morning, provider: .vic, state: .VIC).description == "2026-07-27")
        // Providers without a delay: the capture's own day.
        #expect(HistoryDay.described(capturedAt: morning, provider: .nsw, state: .NSW).description == "2026-07-28")
    }

    @Test func anUpdateThatSaysWhichDayItDescribesIsLabelledSo() {
        // The newest price is 01:48 on 07-27 local, but the capture describes 07-26.
        let newest = Fixture.date("2026-07-26T15:48:19Z")
        var update = ProviderUpdate(
            provider: .vic, stations: [Fixture.station(.vic, "1", state: .VIC)],
            prices: [Fixture.price(.vic, "1", 1_999, at: newest)], asOf: newest)
        update.describedDay = CalendarDay("2026-07-26")
        let (dataset, _) = Dataset().merging(update, at: newest)
        #expect(dataset.history.points(state: .VIC, fuel: .U91).map(\.day) == ["2026-07-26"])
    }
}

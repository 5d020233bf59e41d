import Foundation
import Testing

@testable import Fuel

/// Daily metro averages: recorded with the state's points, over metro stations only, and persisted.
@Suite struct MetroHistoryTests {
    /// Two Perth stations and one in Kalgoorlie, captured at 16:00 Perth.
    static func dataset(perth: Int, country: Int, asOf: Date) -> Dataset {
        let update = ProviderUpdate(
            provider: .wa,
            stations: [
                Fixture.station(.wa, "1", state: .WA, latitude: -31.95, longitude: 115.86),
                Fixture.station(.wa, "2", state: .WA, latitude: -32.05, longitude: 115.75),
                Fixture.station(.wa, "3", state: .WA, latitude: -30.75, longitude: 121.47),
            ],
            prices: [Fixture.price(.wa, "1", perth, at: asOf), Fixture.price(.wa, "2", perth + 20, at: asOf), Fixture.price(.wa, "3", country, at: asOf)],
            asOf: asOf)
        return Dataset().merging(update, at: asOf).0
    }

    @Test func aMergeRecordsTheMetroAverageOverMetroStationsOnly() throws {
        let asOf = Fixture.date("2026-03-15T08:00:00Z")
        let history = Self.dataset(perth: 1_800, country: 2_100, asOf: asOf).history
        let point = try #require(history.points(city: .perth, fuel: .U91).last)
        #expect(point.day == "2026-03-15")
        #expect(point.average == 181)
        #expect(point.stationCount == 2)
        #expect(history.points(state: .WA, fuel: .U91).last?.stationCount == 3)
        #expect(history.points(city: .sydney, fuel: .U91).isEmpty)
    }

    @Test func aCaptureBefore0600PerthBelongsToThePreviousTradingDay() throws {
        let asOf = Fixture.date("2026-03-15T21:00:00Z")  // 05:00 on the 16th in Perth
        let history = Self.dataset(perth: 1_800, country: 2_100, asOf: asOf).history
        #expect(history.points(city: .perth, fuel: .U91).map(\.day) == ["2026-03-15"])
    }

    @Test func metroSeriesSurviveTheCodecAndOldFilesStillLoad() throws {
        let history = Self.dataset(perth: 1_800, country: 2_100, asOf: Fixture.date("2026-03-15T08:00:00Z")).history
        let decoded = try JSONDecoder().decode(History.self, from: try JSONEncoder().encode(history))
        #expect(decoded == history)
        #expect(!decoded.points(city: .perth, fuel: .U91).isEmpty)
        let old = #"{"series":[]}"#
        #expect(try JSONDecoder().decode(History.self, from: Data(old.utf8)).metro.isEmpty)
    }

    @Test func aPublishedReportOnlyFillsDaysWithoutOurOwnPoint() {
        let history = Self.dataset(perth: 1_800, country: 2_100, asOf: Fixture.date("2026-03-15T08:00:00Z")).history
        let report = CycleAdviceTests.points([170, 175], from: CalendarDay("2026-03-14")!)
        let filled = history.fillingMetro(.perth, .U91, with: report)
        #expect(filled.points(city: .perth, fuel: .U91).map(\.average) == [170, 181])
    }

    @Test func theBacktestScoresWaitAndFillAgainstTheNextThreeDays() {
        // Two clean 14-day cycles: waits after a peak are followed by lower prices, fills at the trough by higher.
        let points = CycleAdviceTests.sawtooth(cycles: 4)
        let tally = CycleBacktest.score(city: .sydney, fuel: .U91, points: points, scored: 14..<points.count, rule: .standard)
        #expect(tally.decisions > 30)
        #expect(tally.waits > 0 && tally.fills > 0)
        #expect(tally.waitRate! > 0.8)
        // Flat prices abstain rather than guess.
        let flat = CycleAdviceTests.points(Array(repeating: 180, count: 20))
        let none = CycleBacktest.score(city: .sydney, fuel: .U91, points: flat, scored: 0..<20, rule: .standard)
        #expect(none.decisions == 0 && none.abstained > 0)
    }
}

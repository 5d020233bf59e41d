import Foundation
import Testing

@testable import Fuel

@Suite struct HistoryTests {
    func point(_ day: String, _ average: Double) -> DailyPoint {
        DailyPoint(day: day, average: average, min: PriceTenths(cents: average - 10), max: PriceTenths(cents: average + 10), stationCount: 5)
    }

    func history(_ points: [DailyPoint], state: AustralianState = .NSW, fuel: FuelType = .U91) -> History {
        History(series: [StateFuel(state, fuel): points])
    }

    @Test func anAfternoonUTCInstantIsTheNextDayInSydney() {
        let instant = Fixture.date("2026-01-14T14:30:00Z")
        #expect(AustralianState.NSW.day(containing: instant).description == "2026-01-15")
        #expect(AustralianState.WA.day(containing: instant).description == "2026-01-14")
    }

    @Test func aMergeRecordsTodaysPointOnTheProvidersLocalDay() {
        var dataset = Dataset()
        let asOf = Fixture.date("2026-01-14T14:30:00Z")
        (dataset, _) = dataset.merging(Fixture.update(.nsw, count: 2, tenths: 1_900, asOf: asOf), at: asOf)
        let points = dataset.history.points(state: .NSW, fuel: .U91)
        #expect(points.map(\.day) == ["2026-01-15"])
        #expect(points.first?.average == 190.15)
        #expect(points.first?.stationCount == 2)
    }

    @Test func aLaterMergeOnTheSameDayReplacesThatDaysPoint() {
        var dataset = Dataset()
        let morning = Fixture.date("2026-01-15T00:00:00Z")
        let evening = Fixture.date("2026-01-15T08:00:00Z")
        (dataset, _) = dataset.merging(Fixture.update(.nsw, count: 2, tenths: 1_900, asOf: morning), at: morning)
        (dataset, _) = dataset.merging(Fixture.update(.nsw, count: 2, tenths: 1_800, asOf: evening), at: evening)
        let points = dataset.history.points(state: .NSW, fuel: .U91)
        #expect(points.count == 1)
        #expect(points.first?.average == 180.15)
    }

    @Test func aRejectedUpdateRecordsNothing() {
        var dataset = Dataset()
        (dataset, _) = dataset.merging(Fixture.update(.nsw, count: 2, asOf: Fixture.now), at: Fixture.now)
        let next = Fixture.now.addingTimeInterval(86_400)
        let (after, report) = dataset.merging(ProviderUpdate(provider: .nsw, stations: [], prices: [], asOf: next), at: next)
        #expect(!report.isApplied)
        #expect(after.history == dataset.history)
    }

    @Test func pointsOlderThan120DaysBeforeTheNewestArePruned() {
        var history = History()
        let average = Averages(snapshot: Fixture.merge(Fixture.update(.nsw, count: 1)).snapshot)
        let start = CalendarDay("2026-01-01")!
        for offset in 0...130 {
            history = history.recording(average, state: .NSW, day: start.advanced(by: offset))
        }
        let points = history.points(state: .NSW, fuel: .U91)
        #expect(points.count == 121)
        #expect(points.first?.day == start.advanced(by: 10).description)
        #expect(points.count >= History.minimumDays)
    }

    @Test func theTrendWindowCountsBackFromTheNewestDayWithDataForTheState() {
        // Data stops on 2026-01-10 (the feed stalled); a 3-day trend still shows 01-08...01-10.
        let nsw = (1...10).map { point(String(format: "2026-01-%02d", $0), 180 + Double($0)) }
        var series: [StateFuel: [DailyPoint]] = [StateFuel(.NSW, .U91): nsw]
        series[StateFuel(.NSW, .DL)] = [point("2026-01-12", 200)]
        series[StateFuel(.VIC, .U91)] = [point("2026-02-01", 170)]
        let trend = History(series: series).trend(state: .NSW, fuel: .U91, days: 5)
        #expect(trend.through == "2026-01-12")
        #expect(trend.points.map(\.day) == ["2026-01-08", "2026-01-09", "2026-01-10"])
    }

    @Test func aTrendOfAStateWithoutDataIsEmpty() {
        let trend = History().trend(state: .TAS, fuel: .U91, days: 30)
        #expect(trend.points.isEmpty)
        #expect(trend.cycle == nil)
        #expect(trend.through == nil)
    }

    @Test func cyclePositionIsWhereTheLatestAverageSitsBetweenLowAndHigh() {
        let cycle = Cycle(points: [point("2026-01-01", 200), point("2026-01-02", 180), point("2026-01-03", 185)])
        #expect(cycle?.position == 0.25)
        #expect(cycle?.low == 180)
        #expect(cycle?.high == 200)
    }

    @Test func aFlatWindowSitsInTheMiddle() {
        let cycle = Cycle(points: [point("2026-01-01", 180), point("2026-01-02", 180.05)])
        #expect(cycle?.position == 0.5)
        #expect(cycle?.direction == .steady)
    }

    @Test func directionComparesTheLatestWithTheMeanOfTheThreeBefore() {
        let rising = Cycle(points: ["01", "02", "03", "04", "05"].enumerated().map {
            point("2026-01-\($1)", [150, 180, 181, 182, 181.5][$0])
        })
        #expect(rising?.direction == .rising)  // 181.5 vs mean(180, 181, 182) = 181.0: +0.5
        let steady = Cycle(points: [point("2026-01-01", 181), point("2026-01-02", 181.2), point("2026-01-03", 181.1), point("2026-01-04", 181.3)])
        #expect(steady?.direction == .steady)
        let falling = Cycle(points: [point("2026-01-01", 190), point("2026-01-02", 189)])
        #expect(falling?.direction == .falling)
        #expect(falling?.change == -1)
    }

    @Test func aSinglePointIsSteady() {
        #expect(Cycle(points: [point("2026-01-01", 190)])?.direction == .steady)
    }

    @Test func historySurvivesEncodingAndDecoding() throws {
        let original = history([point("2026-01-01", 180), point("2026-01-02", 181)])
        let data = try JSONEncoder().encode(original)
        #expect(try JSONDecoder().decode(History.self, from: data) == original)
    }

    @Test func replayingDatedUpdatesBuildsOnePointPerDay() {
        let days = (0..<30).map { Fixture.date("2026-01-01T03:00:00Z").addingTimeInterval(Double($0) * 86_400) }
        let updates = days.enumerated().map { Fixture.update(.nsw, count: 3, tenths: 1_800 + $0 * 10, asOf: $1) }
        let history = History.replaying(updates.reversed())
        let points = history.points(state: .NSW, fuel: .U91)
        #expect(points.count == 30)
        #expect(points.first?.day == "2026-01-01")
        #expect(points.last?.day == "2026-01-30")
        #expect(points.last?.average == 209.2)
        #expect(history.trend(state: .NSW, fuel: .U91, days: 7).cycle?.direction == .rising)
    }
}

import Foundation
@testable import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// In the default deployment (VIC's data a day behind its capture) `/v1/averages` and `/v1/trends` name the day they
/// describe, and `/v1/summary`'s 7-day change ends on the day its average describes, never on the day before.
@Suite struct SameDayNumbersTests {
    static func data(_ app: Application, _ path: String) throws -> [String: Any] {
        let response = try app.test(.GET, path)
        #expect(response.status == .ok, "\(path): \(response.bodyString.prefix(300))")
        return try require(try AppTestSupport.json(response)["data"] as? [String: Any])
    }

    static func averageRow(_ app: Application, _ state: String) throws -> [String: Any] {
        let response = try app.test(.GET, "/v1/averages?state=\(state)&fuel=U91")
        return try require((try AppTestSupport.json(response)["data"] as? [[String: Any]])?.first)
    }

    @Test func vicAveragesTrendAndSummaryDescribeTheSameDay() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let average = try Self.averageRow(app, "VIC")
        #expect(average["date"] as? String == "2026-08-21")
        #expect(average["station_count"] as? Int == 1_633)

        let trend = try Self.data(app, "/v1/trends?state=VIC&fuel=U91&days=8")
        #expect(trend["as_of_date"] as? String == "2026-08-21")
        #expect(trend["through"] as? String == "2026-08-21")
        let points = try require(trend["points"] as? [[String: Any]])
        #expect(points.first?["day"] as? String == "2026-08-14")
        #expect(points.last?["day"] as? String == "2026-08-21")
        // The recorded history follows a panel of stations: the new day's point is over that panel too.
        #expect((points.last?["station_count"] as? Int ?? 0) <= 120)

        // A panel's series says it is one, and the summary never sets its change beside the state's average.
        #expect(trend["basis"] as? String == "panel")
        let summary = try Self.data(app, "/v1/summary?state=VIC&fuel=U91")
        #expect(summary["station_count"] as? Int == 1_633)
        #expect(summary["change_7d"] is NSNull)
        #expect(abs((summary["average"] as? Double ?? 0) - (average["average"] as? Double ?? -1)) < 0.051)
    }

    /// The series basis on both sides of its threshold: a point over 80 % of the stations the state's average counts
    /// is the state's, one under it a panel's.
    @Test func aSeriesIsAPanelsBelowFourFifthsOfTheStatesStations() {
        let day = CalendarDay(year: 2026, month: 8, day: 21)!
        let point = { (count: Int) in [DailyPoint(day: "2026-08-21", average: 190, min: PriceTenths(tenths: 1_800), max: PriceTenths(tenths: 2_000), stationCount: count)] }
        #expect(SeriesBasis.of(point(800), day: day, stations: 1_000) == .state)
        #expect(SeriesBasis.of(point(799), day: day, stations: 1_000) == .panel)
        #expect(SeriesBasis.of(point(120), day: day, stations: 1_754) == .panel)
        #expect(SeriesBasis.of(point(120), day: day, stations: nil) == .state)
        #expect(SeriesBasis.of(point(120), day: day.advanced(by: 1), stations: 1_754) == .state)
    }

    @Test func everyStatesAverageRowNamesTheDayItsTrendEndsOn() throws {
        let app = try AppTestSupport.sharedSampleApp()
        for state in ["NSW", "VIC", "WA"] {
            let date = try require(try Self.averageRow(app, state)["date"] as? String, state)
            let trend = try Self.data(app, "/v1/trends?state=\(state)&fuel=U91&days=30")
            #expect(trend["as_of_date"] as? String == date, "\(state)")
            #expect(trend["through"] as? String == date, "\(state)")
        }
    }

    /// A history without a point for the day the averages describe (as before this fix): the summary does not pair
    /// the average with a change ending the day before, and the trend shows which day is missing.
    @Test func aMissingPointForTheAveragesDayIsSaidNotPaired() throws {
        let sample = AppTestSupport.sampleDataset
        let series = sample.history.series.mapValues { points in points.filter { $0.day != "2026-08-21" } }
        var history = History(series: series)
        history.metro = sample.history.metro
        let app = try AppTestSupport.app(with: Dataset(snapshot: sample.snapshot, registry: sample.registry, history: history))

        let summary = try Self.data(app, "/v1/summary?state=VIC&fuel=U91")
        #expect(summary["average"] as? Double != nil)
        #expect(summary["change_7d"] is NSNull)

        let trend = try Self.data(app, "/v1/trends?state=VIC&fuel=U91&days=8")
        #expect(trend["as_of_date"] as? String == "2026-08-21")
        #expect((trend["points"] as? [[String: Any]])?.last?["day"] as? String == "2026-08-20")
    }
}

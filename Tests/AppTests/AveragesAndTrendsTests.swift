import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct AveragesAndTrendsTests: OnSampleApp {
    @Test func averagesPerFuelForAState() throws {
        let res = try app.test(.GET, "/v1/averages?state=VIC")
        let data = try AppTestSupport.list(res).data
        let u91 = try require(data.first { $0["fuel"] as? String == "U91" })
        let average = try require(u91["average"] as? Double)
        #expect(data.allSatisfy { $0["state"] as? String == "VIC" })
        #expect((u91["min"] as? Double ?? 0) <= average && average <= (u91["max"] as? Double ?? 0))
        #expect((u91["station_count"] as? Int ?? 0) > 1000)
    }

    @Test func averagesForAllStatesWithoutAFilter() throws {
        let data = try AppTestSupport.list(try app.test(.GET, "/v1/averages")).data
        #expect(Set(data.compactMap { $0["state"] as? String }) == ["NSW", "ACT", "VIC", "WA"])
    }

    @Test func thirtyDaysOfVICTrendWithACycle() throws {
        let res = try app.test(.GET, "/v1/trends?state=VIC&fuel=U91&days=30")
        let data = try require(try AppTestSupport.json(res)["data"] as? [String: Any])
        let points = try require(data["points"] as? [[String: Any]])
        // The recorded archive misses some days (2026-08-06 was never captured), so a 30-day window has gaps.
        #expect(points.count >= 27)
        #expect(points.count <= 30)
        // Each capture describes the day before its file date; the whole-state capture of 08-22 (describing 08-21)
        // adds the point of the 120-station panel for 08-21, the day `/v1/averages` describes.
        #expect(points.last?["day"] as? String == "2026-08-21")
        let days = points.compactMap { $0["day"] as? String }
        #expect(days == days.sorted())
        let cycle = try require(data["cycle"] as? [String: Any])
        #expect((0...1).contains(cycle["position"] as? Double ?? -1))
        #expect(["rising", "falling", "steady"].contains(cycle["direction"] as? String ?? ""))
        #expect(res.headers.first(name: "Cache-Control") == "public, max-age=300")
    }

    @Test func trendsNeedStateAndFuelAndABoundedWindow() throws {
        #expect(try app.test(.GET, "/v1/trends?fuel=U91").status == .badRequest)
        #expect(try app.test(.GET, "/v1/trends?state=VIC").status == .badRequest)
        #expect(try app.test(.GET, "/v1/trends?state=VIC&fuel=U91&days=91").status == .badRequest)
    }
}

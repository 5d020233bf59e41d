import Foundation
import Testing
@testable import App

/// Issue 48 §1: summaries and cheapest lists never recommend a members-only station, and every station says so.
@Suite struct MembersOnlyEndpointTests {
    @Test func summariesAndCheapestListsLeaveOutCostco() throws {
        let app = try AppTestSupport.sharedSampleApp()
        for path in [
            "/v1/summary?state=ACT&fuel=U91", "/v1/summary?state=VIC&fuel=U91&near=-37.737303,145.012524",
            "/v1/summary?state=NSW&fuel=U91&near=-33.85,150.87", "/v1/prices/cheapest?fuel=U91&near=-37.737303,145.012524&radius_km=10&limit=50",
            "/v1/prices/cheapest?fuel=U91&state=ACT&limit=50",
        ] {
            let response = try app.test(.GET, path)
            #expect(response.status == .ok, "\(path)")
            #expect(!response.bodyString.localizedCaseInsensitiveContains("costco"), "\(path)")
        }
        let included = try app.test(.GET, "/v1/prices/cheapest?fuel=U91&state=ACT&limit=100&include_members_only=true")
        #expect(included.bodyString.contains("Costco Canberra Airport (Members Only)"))
    }

    @Test func aCostcoStationSaysMembershipIsRequired() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let list = try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=ACT&q=costco"))
        let stations = try require(list["data"] as? [[String: Any]])
        #expect(!stations.isEmpty)
        for station in stations { #expect(station["membership_required"] as? Bool == true) }
    }
}

/// Issue 48 §16: a summary's cheapest items carry what a widget shows.
@Suite struct SummaryItemTests {
    @Test func cheapestItemsCarryBrandKeyTimeAndLocation() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let body = try AppTestSupport.json(try app.test(.GET, "/v1/summary?state=NSW&fuel=U91&near=-33.87,151.21"))
        let items = try require((body["data"] as? [String: Any])?["cheapest"] as? [[String: Any]])
        #expect(items.count == 3)
        for item in items {
            #expect(item["brand"] is String && item["brand_key"] is String && item["updated_at"] is String)
            #expect((item["location"] as? [String: Any])?["latitude"] is Double)
        }
    }
}

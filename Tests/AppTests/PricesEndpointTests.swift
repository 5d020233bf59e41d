import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct PricesEndpointTests: OnSampleApp {
    @Test func cheapestNeedsAFuelAndAPlace() throws {
        #expect(try app.test(.GET, "/v1/prices/cheapest?state=NSW").status == .badRequest)
        #expect(try app.test(.GET, "/v1/prices/cheapest?fuel=U91").status == .badRequest)
        let res = try app.test(.GET, "/v1/prices/cheapest?fuel=U91&state=NSW&limit=5")
        let data = try AppTestSupport.list(res).data
        let prices = data.compactMap { $0["price"] as? Double }
        #expect(prices.count == 5)
        #expect(prices == prices.sorted())
        #expect(data.allSatisfy { ($0["station"] as? [String: Any])?["state"] as? String == "NSW" })
    }

    @Test func cheapestNearAPointCarriesDistances() throws {
        let res = try app.test(.GET, "/v1/prices/cheapest?fuel=U91&near=-37.8136,144.9631&radius_km=10")
        let data = try AppTestSupport.list(res).data
        #expect(!data.isEmpty)
        #expect(data.allSatisfy { ($0["distance_km"] as? Double ?? 99) <= 10 })
    }

    @Test func changesSinceAnInstantListOnlyLaterPrices() throws {
        // Without since or cursor: from the beginning.
        #expect(try app.test(.GET, "/v1/prices/changes?limit=1").status == .ok)
        #expect(try app.test(.GET, "/v1/prices/changes?since=yesterday").status == .badRequest)
        let res = try app.test(.GET, "/v1/prices/changes?since=2026-08-21T00:00:00Z&state=VIC")
        let json = try AppTestSupport.json(res)
        let data = try require(json["data"] as? [[String: Any]])
        #expect(!data.isEmpty)
        #expect(data.allSatisfy { ($0["changed_at"] as? String ?? "") > "2026-08-21T00:00:00Z" && $0["state"] as? String == "VIC" })
        let changed = data.compactMap { $0["changed_at"] as? String }
        #expect(changed == changed.sorted())
        let all = try app.test(.GET, "/v1/prices/changes?since=2000-01-01T00:00:00Z&limit=10")
        let meta = try require(try AppTestSupport.json(all)["meta"] as? [String: Any])
        #expect(meta["has_more"] as? Bool == true)
        #expect(meta["next_cursor"] is String)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `fill_cost`, `saving` and `sort=fill_cost` on the bundled sample data, as a client reads them.
@Suite struct WorthTheDriveTests: OnSampleApp {
    static let sydney = "-33.8688,151.2093"

    func list(_ target: String) throws -> (data: [[String: Any]], meta: [String: Any]) {
        let response = try app.test(.GET, target)
        #expect(response.status == .ok, "\(target): \(response.bodyString)")
        return try AppTestSupport.list(response)
    }

    static func u91(_ station: [String: Any]) -> Double? {
        ((station["prices"] as? [[String: Any]]) ?? []).first { $0["fuel"] as? String == "U91" }?["price"] as? Double
    }

    static func cents(_ dollars: Any?) -> Int? { (dollars as? Double).map { Int(($0 * 100).rounded()) } }

    @Test func everyStationsFillCostIsItsPriceTimesTheFillAndTheDrive() throws {
        let (data, meta) = try list("/v1/stations?near=\(Self.sydney)&fuel=U91&litres=50&l_per_100km=9&limit=500")
        #expect(data.count > 20)
        let fill = try require(meta["fill"] as? [String: Any])
        #expect(fill["litres"] as? Double == 50)
        #expect(fill["l_per_100km"] as? Double == 9)
        for station in data where station["fill_cost"] != nil {
            let price = try require(Self.u91(station)), distance = try require(station["distance_km"] as? Double)
            // distance_km is shown to 2 decimals, so the recomputation may differ by a cent.
            let expected = price * (50 + 2 * distance * 9 / 100)
            #expect(abs(Double(try require(Self.cents(station["fill_cost"]))) - expected) <= 1, "station \(station["id"] ?? "?")")
        }
        // The nearest station whose price counts is the reference: its saving is 0, and every other is measured against it.
        let nearestID = try require(fill["nearest_id"] as? Int)
        let nearest = try require(data.first { $0["fill_cost"] != nil })
        #expect(nearest["id"] as? Int == nearestID)
        #expect(Self.cents(nearest["saving"]) == 0)
        let reference = try require(Self.cents(fill["nearest_fill_cost"]))
        for station in data where station["fill_cost"] != nil {
            #expect(Self.cents(station["saving"]) == reference - Self.cents(station["fill_cost"])!)
        }
    }

    @Test func sortByFillCostRanksTheCheapestFillFirst() throws {
        let (data, meta) = try list("/v1/stations?near=\(Self.sydney)&fuel=U91&sort=fill_cost&radius_km=10&limit=500")
        let costs = data.compactMap { Self.cents($0["fill_cost"]) }
        #expect(costs.count == data.count, "sort=fill_cost lists only stations with a fill cost")
        #expect(costs == costs.sorted())
        #expect(costs.count > 20)
        let fill = try require(meta["fill"] as? [String: Any])
        #expect(fill["litres"] as? Double == 40 && fill["l_per_100km"] as? Double == 8)
        // The cheapest fill is not simply the cheapest pump price nearby: the drive counts.
        #expect(Self.cents(data[0]["saving"])! >= 0)
    }

    @Test func aThirstierCarPrefersNearerStations() throws {
        func meanDistance(_ consumption: Int) throws -> Double {
            let data = try list("/v1/stations?near=\(Self.sydney)&fuel=U91&sort=fill_cost&radius_km=20&limit=10&l_per_100km=\(consumption)").data
            return data.compactMap { $0["distance_km"] as? Double }.reduce(0, +) / Double(data.count)
        }
        #expect(try meanDistance(30) < meanDistance(2))
    }

    @Test func cheapestCarriesTheFillCostAndSortsByIt() throws {
        let response = try app.test(.GET, "/v1/prices/cheapest?fuel=U91&near=\(Self.sydney)&radius_km=10&sort=fill_cost&litres=30&limit=20")
        #expect(response.status == .ok, "\(response.bodyString)")
        let json = try AppTestSupport.json(response)
        let data = try require(json["data"] as? [[String: Any]])
        let costs = data.compactMap { Self.cents($0["fill_cost"]) }
        #expect(costs.count == data.count && costs == costs.sorted() && !costs.isEmpty)
        for item in data {
            let price = try require(item["price"] as? Double), distance = try require(item["distance_km"] as? Double)
            #expect(abs(Double(Self.cents(item["fill_cost"])!) - price * (30 + 2 * distance * 8 / 100)) <= 1)
        }
        #expect((json["meta"] as? [String: Any])?["fill"] != nil)
    }

    @Test(arguments: [
        ("/v1/stations?near=\(sydney)&fuel=U91&litres=0.5", "litres"),
        ("/v1/stations?near=\(sydney)&fuel=U91&litres=201", "litres"),
        ("/v1/stations?near=\(sydney)&fuel=U91&l_per_100km=1.9", "l_per_100km"),
        ("/v1/stations?near=\(sydney)&fuel=U91&l_per_100km=30.5", "l_per_100km"),
        ("/v1/stations?near=\(sydney)&fuel=U91&litres=abc", "litres"),
        ("/v1/stations?fuel=U91&litres=40", "litres"),  // no near
        ("/v1/stations?near=\(sydney)&fuel=U91,E10&litres=40", "litres"),  // two fuels
        ("/v1/stations?near=\(sydney)&sort=fill_cost", "fill_cost"),  // no fuel
        ("/v1/stations?state=NSW&fuel=U91&sort=fill_cost", "fill_cost"),  // no near
        ("/v1/prices/cheapest?fuel=U91&state=NSW&litres=40", "litres"),
        ("/v1/prices/cheapest?fuel=U91&state=NSW&sort=fill_cost", "fill_cost"),
    ])
    func badFillInputIsA400NamingIt(_ target: String, _ name: String) throws {
        let response = try app.test(.GET, target)
        #expect(response.status == .badRequest)
        let reason = try AppTestSupport.json(response)["reason"] as? String ?? ""
        #expect(reason.contains(name), "\(target): \(reason)")
    }

    @Test func theBoundsThemselvesAreAccepted() throws {
        for target in ["litres=1&l_per_100km=2", "litres=200&l_per_100km=30"] {
            let response = try app.test(.GET, "/v1/stations?near=\(Self.sydney)&fuel=U91&\(target)")
            #expect(response.status == .ok, "\(target): \(response.bodyString)")
        }
    }

    @Test func withoutNearOrOneFuelNothingChanges() throws {
        let (data, meta) = try list("/v1/stations?state=NSW&fuel=U91&limit=5")
        #expect(data.allSatisfy { $0["fill_cost"] == nil && $0["saving"] == nil })
        #expect(meta["fill"] == nil)
    }

    @Test func aLiveClientSeesTheFillCost() async throws {
        let app = try AppTestSupport.sampleApp()
        let port = try app.startLive()
        defer { app.shutdown() }
        let got = try await LiveGet(port: port, "/v1/stations?near=\(Self.sydney)&fuel=U91&sort=fill_cost&limit=3")
        #expect(got.status == 200)
        let data = try require(try got.json()["data"] as? [[String: Any]])
        #expect(data.count == 3)
        #expect(data.allSatisfy { $0["fill_cost"] is Double && $0["saving"] is Double })
    }
}

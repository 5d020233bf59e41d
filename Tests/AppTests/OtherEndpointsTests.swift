import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct PricesEndpointTests {
    let app: Application

    init() throws { app = try AppTestSupport.sharedSampleApp() }

    @Test func cheapestNeedsAFuelAndAPlace() throws {
        #expect(try app.test(.GET, "/v1/prices/cheapest?state=NSW").status == .badRequest)
        #expect(try app.test(.GET, "/v1/prices/cheapest?fuel=U91").status == .badRequest)
        let res = try app.test(.GET, "/v1/prices/cheapest?fuel=U91&state=NSW&limit=5")
        let data = try require(try AppTestSupport.json(res)["data"] as? [[String: Any]])
        let prices = data.compactMap { $0["price"] as? Double }
        #expect(prices.count == 5)
        #expect(prices == prices.sorted())
        #expect(data.allSatisfy { ($0["station"] as? [String: Any])?["state"] as? String == "NSW" })
    }

    @Test func cheapestNearAPointCarriesDistances() throws {
        let res = try app.test(.GET, "/v1/prices/cheapest?fuel=U91&near=-37.8136,144.9631&radius_km=10")
        let data = try require(try AppTestSupport.json(res)["data"] as? [[String: Any]])
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

@Suite struct AveragesAndTrendsTests {
    let app: Application

    init() throws { app = try AppTestSupport.sharedSampleApp() }

    @Test func averagesPerFuelForAState() throws {
        let res = try app.test(.GET, "/v1/averages?state=VIC")
        let data = try require(try AppTestSupport.json(res)["data"] as? [[String: Any]])
        let u91 = try require(data.first { $0["fuel"] as? String == "U91" })
        let average = try require(u91["average"] as? Double)
        #expect(data.allSatisfy { $0["state"] as? String == "VIC" })
        #expect((u91["min"] as? Double ?? 0) <= average && average <= (u91["max"] as? Double ?? 0))
        #expect((u91["station_count"] as? Int ?? 0) > 1000)
    }

    @Test func averagesForAllStatesWithoutAFilter() throws {
        let data = try require(try AppTestSupport.json(try app.test(.GET, "/v1/averages"))["data"] as? [[String: Any]])
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

@Suite struct TomorrowEndpointTests {
    let app: Application

    init() throws { app = try AppTestSupport.sharedSampleApp() }

    @Test func waTomorrowIsAvailableWithVerdicts() throws {
        let res = try app.test(.GET, "/v1/tomorrow?state=WA&fuel=U91")
        let data = try require(try AppTestSupport.json(res)["data"] as? [String: Any])
        #expect(data["available"] as? Bool == true)
        #expect(data["trading_day"] as? String == "2026-04-23")
        #expect(data["published_at"] as? String == "2026-04-22T06:30:00Z")
        let stations = try require(data["stations"] as? [[String: Any]])
        #expect(!stations.isEmpty)
        // A station closed today (Walkaway, 3369) has tomorrow's price but none today.
        #expect(stations.filter { $0["today"] is NSNull }.map { $0["verdict"] as? String } == ["no_price_today"])
        for row in stations where !(row["today"] is NSNull) {
            let today = try require(row["today"] as? Double), tomorrow = try require(row["tomorrow"] as? Double)
            let expected = abs(today - tomorrow) <= 0.1 ? "same" : (tomorrow < today ? "tomorrow_cheaper" : "today_cheaper")
            #expect(row["verdict"] as? String == expected)
            #expect(row["fuel"] as? String == "U91")
        }
    }

    @Test func favouritesAndNearbyNarrowTheList() throws {
        let wa = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .WA && $0.prices.contains { $0.fuel == .U91 && $0.tomorrow != nil } })
        let res = try app.test(.GET, "/v1/tomorrow?fuel=U91&ids=\(wa.id.rawValue)")
        let stations = try require((try AppTestSupport.json(res)["data"] as? [String: Any])?["stations"] as? [[String: Any]])
        #expect(stations.map { $0["station_id"] as? Int } == [wa.id.rawValue])
        let near = "\(wa.station.location.latitude),\(wa.station.location.longitude)"
        let nearby = try app.test(.GET, "/v1/tomorrow?fuel=U91&near=\(near)&radius_km=1")
        let rows = try require((try AppTestSupport.json(nearby)["data"] as? [String: Any])?["stations"] as? [[String: Any]])
        #expect(rows.first?["station_id"] as? Int == wa.id.rawValue)
        #expect((rows.first?["distance_km"] as? Double ?? 9) < 0.01)
    }

    @Test func otherStatesAnswerNotAvailableWithAReason() throws {
        let res = try app.test(.GET, "/v1/tomorrow?state=NSW")
        #expect(res.status == .ok)
        let data = try require(try AppTestSupport.json(res)["data"] as? [String: Any])
        #expect(data["available"] as? Bool == false)
        #expect((data["reason"] as? String)?.contains("WA") == true)
    }

    @Test func beforePublicationLiveDataIsNotAvailableYet() throws {
        // Live WA data at 10:00 Perth on 2026-04-22 with a "tomorrow" value that FuelWatch has not published yet.
        let morning = Date(timeIntervalSince1970: 1_776_823_200) // 2026-04-22T02:00:00Z = 10:00 AWST
        let key = StationKey(provider: .wa, sourceID: "site-1")
        let update = ProviderUpdate(
            provider: .wa,
            stations: [StationRecord(key: key, name: "Test Servo", brand: "BP", address: "1 Hay St", suburb: "Perth", state: .WA, postcode: "6000", location: Coordinate(latitude: -31.95, longitude: 115.86))],
            prices: [PriceRecord(station: key, fuel: .U91, price: PriceTenths(tenths: 1899), updatedAt: morning.addingTimeInterval(-4 * 3600))],
            tomorrow: [TomorrowPriceRecord(station: key, fuel: .U91, price: PriceTenths(tenths: 1799), day: "2026-04-23")],
            asOf: morning)
        let (dataset, _) = Dataset().merging(update, source: .live, at: morning)
        let app = try AppTestSupport.app(with: dataset, clock: { morning })
        let data = try require(try AppTestSupport.json(try app.test(.GET, "/v1/tomorrow?fuel=U91"))["data"] as? [String: Any])
        #expect(data["available"] as? Bool == false)
        #expect(data["expected_at"] as? String == "2026-04-22T06:30:00Z")
        #expect((data["stations"] as? [Any])?.isEmpty == true)
    }
}

@Suite struct HealthEndpointTests {
    @Test func healthReportsSampleDataPerStateAndProvider() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let res = try app.test(.GET, "/health")
        #expect(res.status == .ok)
        #expect(res.headers.first(name: "Cache-Control") == "no-store")
        let json = try AppTestSupport.json(res)
        #expect(json["source"] as? String == "sample")
        #expect(json["status"] as? String == "ok")
        let providers = try require(json["providers"] as? [[String: Any]])
        #expect(Set(providers.compactMap { $0["provider"] as? String }) == ["nsw", "wa", "vic"])
        #expect(providers.allSatisfy { $0["status"] as? String == "sample" })
        let states = try require(json["states"] as? [[String: Any]])
        #expect(states.first { $0["state"] as? String == "ACT" }?["stations"] as? Int == 70)
    }

    @Test func healthIs503WithNoDataAtAll() throws {
        let app = try AppTestSupport.app(with: Dataset())
        let res = try app.test(.GET, "/health")
        #expect(res.status == .serviceUnavailable)
        #expect(try AppTestSupport.json(res)["status"] as? String == "unavailable")
    }
}

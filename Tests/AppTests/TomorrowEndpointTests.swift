import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct TomorrowEndpointTests: OnSampleApp {
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

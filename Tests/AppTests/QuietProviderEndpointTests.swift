import Foundation
import Fuel
import Testing
@testable import API
@testable import App

/// Issue 48 §3 on the wire: WA live, FuelWatch failing, the wall clock 39 days on.
@Suite struct QuietProviderEndpointTests {
    @Test func aQuietProvidersPricesAreStaleUncountedAndSaySinceWhen() throws {
        let asOf = Date(timeIntervalSince1970: 1_776_000_000)
        let wall = asOf.addingTimeInterval(39 * 86_400)
        let ids = (1...4).map(String.init)
        let key = { (id: String) in StationKey(provider: .wa, sourceID: id) }
        let update = ProviderUpdate(
            provider: .wa,
            stations: ids.map {
                StationRecord(
                    key: key($0), name: "Perth \($0)", brand: "Ampol", address: "\($0) Hay St", suburb: "Perth", state: .WA,
                    postcode: "6000", location: Coordinate(latitude: -31.95 + Double($0)! / 1_000, longitude: 115.86))
            },
            prices: ids.map { PriceRecord(station: key($0), fuel: .U91, price: PriceTenths(tenths: 1_850 + Int($0)!), updatedAt: asOf) },
            asOf: asOf)
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { wall },
            dataset: Dataset().merging(update, source: .live, at: asOf).0)
        let fresh = try AppTestSupport.json(try app.test(.GET, "/v1/summary?state=WA&fuel=U91"))
        #expect((fresh["data"] as? [String: Any])?["stale_since"] is NSNull)
        func healthOfWA() throws -> String? {
            let providers = try AppTestSupport.json(try app.test(.GET, "/health"))["providers"] as? [[String: Any]]
            return providers?.first { $0["provider"] as? String == "wa" }?["status"] as? String
        }
        #expect(try healthOfWA() == "ok")

        store.markQuiet(at: wall)
        // Polls that bring nothing new are not failures, but an operator must see that every price is stale.
        #expect(try healthOfWA() == "stale")
        let station = try app.test(.GET, "/v1/stations/1").bodyString
        #expect(station.contains("\"stale\":true"))
        let summary = try require(try AppTestSupport.json(try app.test(.GET, "/v1/summary?state=WA&fuel=U91"))["data"] as? [String: Any])
        #expect(summary["stale_since"] as? String == ISOTimestamp.string(asOf.addingTimeInterval(2 * 86_400)))
        #expect(summary["average"] is NSNull)
        #expect((summary["cheapest"] as? [Any])?.isEmpty == true)
        let cheapest = try require(try AppTestSupport.json(try app.test(.GET, "/v1/prices/cheapest?fuel=U91&state=WA"))["data"] as? [Any])
        #expect(cheapest.isEmpty)
        let page = try app.test(.GET, "/stations/1", headers: ["Accept": "text/html"]).bodyString
        #expect(page.contains("<p class=\"notice stale\"><strong>Out of date:</strong> no new prices have come from this state's provider since"))
    }
}

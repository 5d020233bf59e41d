import Foundation
import Fuel
import Testing
@testable import App

/// Issue 48 §17: a station the registry knows was removed answers 410 with `removed_at`; an id never issued is 404.
@Suite struct RemovedStationTests {
    @Test func aRemovedStationIsGoneAndAnUnknownIdIsNotFound() throws {
        let first = Date(timeIntervalSince1970: 1_776_000_000)
        let ids = (1...3).map(String.init)
        func update(_ ids: [String], at: Date) -> ProviderUpdate {
            let key = { (id: String) in StationKey(provider: .qld, sourceID: id) }
            return ProviderUpdate(
                provider: .qld,
                stations: ids.map {
                    StationRecord(
                        key: key($0), name: "Brisbane \($0)", brand: "Ampol", address: "\($0) Queen St", suburb: "Brisbane",
                        state: .QLD, postcode: "4000", location: Coordinate(latitude: -27.47 + Double($0)! / 1_000, longitude: 153.02))
                },
                prices: ids.map { PriceRecord(station: key($0), fuel: .U91, price: PriceTenths(tenths: 1_850), updatedAt: at) },
                asOf: at)
        }
        var dataset = Dataset().merging(update(ids, at: first), source: .live, at: first).0
        // Three feeds and a day without station 3: removed (FeedPolicy).
        var at = first
        for _ in 0..<4 {
            at = at.addingTimeInterval(FeedPolicy.minimumAbsence / 2)
            dataset = dataset.merging(update(["1", "2"], at: at), source: .live, at: at).0
        }
        let removedID = try require(dataset.registry.id(for: StationKey(provider: .qld, sourceID: "3")))
        #expect(dataset.snapshot.slot(of: removedID) == nil)
        let now = at
        let app = try AppTestSupport.app(with: dataset, clock: { now })
        let gone = try app.test(.GET, "/v1/stations/\(removedID.rawValue)")
        #expect(gone.status.code == 410)
        let body = try AppTestSupport.json(gone)
        #expect(body["error"] as? Bool == true && body["removed_at"] is String)
        let page = try app.test(.GET, "/stations/\(removedID.rawValue)", headers: ["Accept": "text/html"])
        #expect(page.status.code == 410 && page.bodyString.contains("This station has closed"))
        #expect(try app.test(.GET, "/v1/stations/999").status == .notFound)
        #expect(try app.test(.GET, "/stations/999", headers: ["Accept": "text/html"]).status == .notFound)
    }
}

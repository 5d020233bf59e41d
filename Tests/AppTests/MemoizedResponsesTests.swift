import Foundation
import Fuel
import Testing
@testable import API
@testable import App
@testable import HTTP

/// Answers rendered once per snapshot (`SnapshotMemo`) as a client sees them: the same bytes until the data
/// changes, new data at once, the gzip made once.
@Suite struct MemoizedResponsesTests {
    let wall = Date(timeIntervalSince1970: 1_795_500_000)  // 2026-11-24, a whole second
    /// One app for the read-only cases: each target is a different memo, so they cannot see each other's stores.
    static let readOnly = Result { try AppTestSupport.sampleApp(clock: { Date(timeIntervalSince1970: 1_795_500_000) }) }

    @Test(arguments: ["/v1/trends?state=VIC&fuel=U91&days=30", "/v1/averages?state=NSW", "/v1/prices/cheapest?fuel=U91&state=NSW&limit=100",
        "/v1/stations?state=NSW&limit=50", "/v1/stations?state=NSW&fuel=U91&cluster=true&zoom=22"])
    func aMemoizedAnswerIsStoredCompressedOnce(_ target: String) throws {
        let app = try Self.readOnly.get()
        let plain = try app.test(.GET, target)
        let first = try app.test(.GET, target, headers: ["Accept-Encoding": "gzip"])
        let second = try app.test(.GET, target, headers: ["Accept-Encoding": "gzip"])
        let third = try app.test(.GET, target, headers: ["Accept-Encoding": "gzip"])
        #expect(first.headers.first(name: "Content-Encoding") == "gzip", "\(target)")
        // Asked once, the body costs a fast gzip made for that request; reused, the better one is made once and kept.
        #expect(first.body == Gzip.compress(plain.body, level: Gzip.fastLevel), "\(target): first use at the fast level")
        #expect(second.body == third.body && first.headers.first(name: "ETag") == second.headers.first(name: "ETag"))
        #expect(second.body == Gzip.compress(plain.body, level: Gzip.storedLevel), "\(target): compressed per request, not stored")
    }

    @Test func aNewPriceReachesTheMemoizedAnswersAtOnce() throws {
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { [wall] in wall }, dataset: AppTestSupport.sampleDataset)
        let cheapest = "/v1/prices/cheapest?fuel=U91&state=NSW&limit=1&include_closed=true"
        let averages = "/v1/averages?state=NSW&fuel=U91"
        let before = try app.test(.GET, cheapest)
        let averageBefore = try app.test(.GET, averages)
        #expect(try app.test(.GET, cheapest).body == before.body)
        #expect(!before.bodyString.contains("Memo Servo"))

        let station = StationRecord(
            key: StationKey(provider: .nsw, sourceID: "memo-1"), name: "Memo Servo", brand: "Ampol", address: "1 George St",
            suburb: "Sydney", state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.87, longitude: 151.21))
        let price = PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: 999), updatedAt: wall.addingTimeInterval(-60))
        #expect(store.apply(ProviderUpdate(provider: .nsw, stations: [station], prices: [price], asOf: wall), source: .live, at: wall).isApplied)

        // The same second by the clock: only the snapshot moved.
        let after = try app.test(.GET, cheapest)
        #expect(after.bodyString.contains("Memo Servo") && after.bodyString.contains("\"price\":99.9"), "\(after.bodyString.prefix(300))")
        #expect(after.headers.first(name: "ETag") != before.headers.first(name: "ETag"))
        #expect(try app.test(.GET, averages).body != averageBefore.body)
    }
}

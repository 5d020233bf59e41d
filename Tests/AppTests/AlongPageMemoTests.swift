import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Route searches answered again from their kept page (`AlongPageMemo`), as a client on a socket sees them: new data
/// at once, and a memo that keeps no more than its bound however many routes are asked.
@Suite struct AlongPageMemoTests {
    let wall = Date(timeIntervalSince1970: 1_795_500_000)

    static func get(_ port: Int, _ query: String) async throws -> (status: Int, body: Data) {
        let url = URL(string: "http://127.0.0.1:\(port)/v1/stations/along?\(query)")!
        let (body, response) = try await URLSession.shared.data(from: url)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, body)
    }

    static func post(_ port: Int, _ body: String) async throws -> (status: Int, body: Data) {
        var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)/v1/stations/along")!)
        request.httpMethod = "POST"
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.httpBody = Data(body.utf8)
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, data)
    }

    @Test func aStationAddedAfterARouteWasAskedIsOnItsNextAnswer() async throws {
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { [wall] in wall }, dataset: AppTestSupport.sampleDataset)
        let port = try app.startLive()
        defer { app.shutdown() }
        let query = "polyline=\(AlongEndpointTests.encoded(AlongEndpointTests.route))&fuel=U91&sort=price&limit=500"
        let body = #"{"polyline": "\#(Polyline.encode(AlongEndpointTests.route))", "fuel": "U91", "sort": "price", "limit": 500}"#
        let getBefore = try await Self.get(port, query)
        let postBefore = try await Self.post(port, body)
        #expect(getBefore.status == 200 && postBefore.status == 200)
        // Asked again: the kept page gives the same bytes.
        #expect(try await Self.get(port, query).body == getBefore.body)
        #expect(try await Self.post(port, body).body == postBefore.body)
        #expect(!String(decoding: getBefore.body, as: UTF8.self).contains("Route Memo Servo"))

        // On Parramatta Road, half a kilometre off the route, and the cheapest U91 anywhere.
        let station = StationRecord(
            key: StationKey(provider: .nsw, sourceID: "along-memo-1"), name: "Route Memo Servo", brand: "Ampol",
            address: "1 Parramatta Rd", suburb: "Homebush", state: .NSW, postcode: "2140",
            location: Coordinate(latitude: -33.8610, longitude: 151.0900))
        let price = PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: 999), updatedAt: wall.addingTimeInterval(-60))
        #expect(store.apply(ProviderUpdate(provider: .nsw, stations: [station], prices: [price], asOf: wall), source: .live, at: wall).isApplied)

        for after in [try await Self.get(port, query), try await Self.post(port, body)] {
            let text = String(decoding: after.body, as: UTF8.self)
            #expect(after.status == 200)
            #expect(text.contains("Route Memo Servo"), "\(text.prefix(300))")
            let first = try #require((try JSONSerialization.jsonObject(with: after.body) as? [String: Any])?["data"] as? [[String: Any]]).first
            #expect(first?["name"] as? String == "Route Memo Servo", "the cheapest is first")
        }
    }

    @Test func theKeptPagesStayWithinTheirBound() async throws {
        let app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        var context = PettyContext(
            store: makePettyStore(AppTestSupport.sampleDataset, clock: { [wall] in wall }), clock: { [wall] in wall },
            startedAt: wall, appStoreID: nil)
        context.alongPages = SnapshotMemo(limits: .init(entries: 3, bytes: 1 << 20))
        try app.register(collection: AlongController(context: context))
        let port = try app.startLive()
        defer { app.shutdown() }
        let polyline = AlongEndpointTests.encoded(AlongEndpointTests.route)
        let queries = (0..<8).map { "polyline=\(polyline)&detour_km=\(1 + Double($0) / 10)&limit=500" }
        var first: [Data] = []
        for query in queries {
            let answer = try await Self.get(port, query)
            #expect(answer.status == 200)
            first.append(answer.body)
            #expect(context.alongPages.count <= 3)
        }
        #expect(context.alongPages.count == 3)
        // The oldest went first; the newest are kept.
        let view = context.store.current
        #expect((context.alongPages.kept(AlongPageMemo.key(query: queries[0]), in: view, wall: wall) as AlongPage?) == nil)
        #expect((context.alongPages.kept(AlongPageMemo.key(query: queries[7]), in: view, wall: wall) as AlongPage?) != nil)
        // Whether kept or searched again, every route answers as it did.
        for (index, query) in queries.enumerated() {
            #expect(try await Self.get(port, query).body == first[index], "\(query)")
        }
        #expect(context.alongPages.count == 3)
        // Wider detours find more stations: the answers are each route's own, not a neighbour's.
        #expect(Set(first).count == queries.count)
    }

    @Test func aSearchJudgedOpenNowIsNotKept() throws {
        let app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        let context = PettyContext(
            store: makePettyStore(AppTestSupport.sampleDataset, clock: { [wall] in wall }), clock: { [wall] in wall },
            startedAt: wall, appStoreID: nil)
        try app.register(collection: AlongController(context: context))
        let polyline = AlongEndpointTests.encoded(AlongEndpointTests.route)
        #expect(try app.test(.GET, "/v1/stations/along?polyline=\(polyline)&open_now=true").status == .ok)
        #expect(context.alongPages.count == 0)
        #expect(try app.test(.GET, "/v1/stations/along?polyline=\(polyline)&open_now=false").status == .ok)
        #expect(context.alongPages.count == 1)
        // A body refused for its media type is refused whatever was kept for the same bytes.
        let body = Array(#"{"polyline": "\#(Polyline.encode(AlongEndpointTests.route))"}"#.utf8)
        #expect(try app.test(.POST, "/v1/stations/along", headers: ["Content-Type": "application/json"], body: body).status == .ok)
        #expect(try app.test(.POST, "/v1/stations/along", headers: ["Content-Type": "text/plain"], body: body).status.code == 415)
    }
}

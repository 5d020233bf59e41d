import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `GET /v1/stations/along` on the bundled sample data.
@Suite struct AlongEndpointTests: OnSampleApp {
    /// Parramatta to the Sydney CBD, roughly along Parramatta Road: about 22 km.
    static let route = [
        Coordinate(latitude: -33.8150, longitude: 151.0011), Coordinate(latitude: -33.8530, longitude: 151.0860),
        Coordinate(latitude: -33.8770, longitude: 151.1520), Coordinate(latitude: -33.8688, longitude: 151.2093),
    ]

    static func encoded(_ points: [Coordinate]) -> String {
        Polyline.encode(points).addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
    }

    func list(_ query: String) throws -> (data: [[String: Any]], meta: [String: Any]) {
        let response = try app.test(.GET, "/v1/stations/along?polyline=\(Self.encoded(Self.route))&\(query)")
        #expect(response.status == .ok, "\(response.bodyString.prefix(300))")
        let json = try AppTestSupport.json(response)
        return (try require(json["data"] as? [[String: Any]]), try require(json["meta"] as? [String: Any]))
    }

    @Test func stationsComeInTheOrderTheRoutePassesThem() throws {
        let (data, meta) = try list("detour_km=1&limit=500")
        #expect(data.count > 10)
        #expect(meta["total"] as? Int == data.count)
        let along = data.compactMap { $0["along_km"] as? Double }
        #expect(along.count == data.count && along == along.sorted())
        #expect(along.allSatisfy { (0...23).contains($0) })
        #expect(data.allSatisfy { ($0["detour_km"] as? Double ?? 99) <= 1 })
        // Every fuel station the route passes within 1 km is listed: the same as a brute-force scan of the data. EV
        // charging sites on the way are left out, as every list leaves them out by default (`Station.kind`).
        let index = FuelIndex(snapshot: AppTestSupport.sampleDataset.snapshot)
        let path = try RoutePath(points: Self.route)
        let passed = index.snapshot.entries.filter { entry in
            (0..<path.segmentCount).contains { path.offset(of: entry.station.location, fromSegment: $0).offKm <= 1 }
        }
        #expect(passed.contains { $0.station.kind == .ev }, "the route passes EV charging sites, which the list leaves out")
        #expect(Set(data.compactMap { $0["id"] as? Int }) == Set(passed.filter { $0.station.kind == .fuel }.map(\.id.rawValue)))
        #expect(data.allSatisfy { $0["kind"] as? String == "fuel" })
    }

    @Test func sortByPriceRanksTheFuelCheapestFirst() throws {
        let data = try list("fuel=U91&sort=price&detour_km=2&limit=500").data
        let prices = data.map { station in
            ((station["prices"] as? [[String: Any]]) ?? []).first { $0["fuel"] as? String == "U91" }?["price"] as? Double ?? -1
        }
        #expect(!prices.isEmpty && !prices.contains(-1))
        #expect(prices == prices.sorted())
    }

    @Test func pagesFollowOneAnother() throws {
        let all = try list("detour_km=2&limit=500").data.compactMap { $0["id"] as? Int }
        let first = try list("detour_km=2&limit=5").data.compactMap { $0["id"] as? Int }
        let second = try list("detour_km=2&limit=5&offset=5").data.compactMap { $0["id"] as? Int }
        #expect(first + second == Array(all.prefix(10)))
    }

    @Test func aWiderDetourFindsMore() throws {
        #expect(try list("detour_km=0.5&limit=500").data.count < list("detour_km=3&limit=500").data.count)
    }

    @Test(arguments: [
        ("polyline=", "polyline"),
        ("polyline=%20abc", "polyline"),
        ("polyline=_p~iF", "polyline"),  // a latitude without its longitude
        ("polyline=_p~iF~ps%7CU", "polyline"),  // one point
        ("fuel=U91", "polyline"),  // missing
        ("polyline=\(encoded(route))&detour_km=0", "detour_km"),
        ("polyline=\(encoded(route))&detour_km=20.5", "detour_km"),
        ("polyline=\(encoded(route))&detour_km=far", "detour_km"),
        ("polyline=\(encoded(route))&sort=price", "fuel"),
        ("polyline=\(encoded(route))&sort=distance", "sort"),
        ("polyline=\(encoded(route))&radius_km=2", "radius_km"),  // not a parameter of this operation
    ])
    func badInputIsA400NamingTheParameter(_ query: String, _ name: String) throws {
        let response = try app.test(.GET, "/v1/stations/along?\(query)")
        #expect(response.status == .badRequest)
        let reason = try AppTestSupport.json(response)["reason"] as? String ?? ""
        #expect(reason.contains(name), "\(query): \(reason)")
    }

    /// The route is read from its escaped bytes when the query is plain (`AlongQueryText`) and unescaped first
    /// otherwise: every spelling of one query answers the same body, and a second route is refused either way.
    @Test func everySpellingOfTheRouteAnswersTheSameBody() throws {
        let text = Polyline.encode(Self.route)
        let allEscaped = text.utf8.map { String(format: "%%%02x", $0) }.joined()
        let spellings = [
            "polyline=\(Self.encoded(Self.route))&fuel=U91&detour_km=1",
            "polyline=\(allEscaped)&fuel=U91&detour_km=1",
            "fuel=U91&polyline=\(Self.encoded(Self.route))&detour_km=1",
            "fuel=U91&detour_km=1&polyline=\(Self.encoded(Self.route))",
            "&&fuel=U91&&polyline=\(Self.encoded(Self.route))&&detour_km=1&",
            "polyline=+\(Self.encoded(Self.route))+&fuel=U91&detour_km=1",  // padded: unescaped and trimmed
            "poly%6Cine=\(Self.encoded(Self.route))&fuel=U91&detour_km=1",  // an escaped name
        ]
        let bodies = try spellings.map { query in
            let response = try app.test(.GET, "/v1/stations/along?\(query)")
            #expect(response.status == .ok, "\(query): \(response.bodyString.prefix(200))")
            return response.bodyString
        }
        #expect(Set(bodies).count == 1 && bodies[0].contains("\"along_km\""))
        for twice in [
            "polyline=\(Self.encoded(Self.route))&polyline=\(Self.encoded(Self.route))",
            "polyline=\(Self.encoded(Self.route))&poly%6Cine=\(Self.encoded(Self.route))",
            "polyline=\(Self.encoded(Self.route))&polyline",
        ] {
            let response = try app.test(.GET, "/v1/stations/along?\(twice)")
            #expect(response.status == .badRequest)
            #expect((try AppTestSupport.json(response)["reason"] as? String ?? "").contains("polyline is given more than once"), "\(twice)")
        }
    }

    @Test func tooManyPointsOrTooLongIsA400() throws {
        // 2,001 points 10 m apart: under the length limit, over the point limit.
        let many = (0...2_000).map { Coordinate(latitude: -33.8 - Double($0) * 0.0001, longitude: 151) }
        let tooMany = try app.test(.GET, "/v1/stations/along?polyline=\(Self.encoded(many))")
        #expect(tooMany.status == .badRequest)
        #expect((try AppTestSupport.json(tooMany)["reason"] as? String ?? "").contains("more than 2000 points"))
        let enough = try app.test(.GET, "/v1/stations/along?polyline=\(Self.encoded(Array(many.dropLast())))")
        #expect(enough.status == .ok, "2,000 points are allowed: \(enough.bodyString.prefix(200))")
        // Perth to Sydney is about 3,300 km: too long.
        let long = [Coordinate(latitude: -31.95, longitude: 115.86), Coordinate(latitude: -33.87, longitude: 151.21)]
        let response = try app.test(.GET, "/v1/stations/along?polyline=\(Self.encoded(long))")
        #expect(response.status == .badRequest)
        let reason = try AppTestSupport.json(response)["reason"] as? String ?? ""
        #expect(reason.contains("polyline") && reason.contains("1500 km"), "\(reason)")
    }

    @Test func theRouteDoesNotShadowAStationOrItsHistory() throws {
        #expect(try app.test(.GET, "/v1/stations/1").status == .ok)
        #expect(try app.test(.GET, "/v1/stations/along/history").status == .notFound)
    }

    @Test func aLiveClientGetsStationsAlongItsRoute() async throws {
        let app = try AppTestSupport.sampleApp()
        let port = try app.startLive()
        defer { app.shutdown() }
        let url = URL(string: "http://127.0.0.1:\(port)/v1/stations/along?polyline=\(Self.encoded(Self.route))&fuel=U91&limit=3")!
        let (body, response) = try await URLSession.shared.data(from: url)
        #expect((response as? HTTPURLResponse)?.statusCode == 200)
        let data = try require((try JSONSerialization.jsonObject(with: body) as? [String: Any])?["data"] as? [[String: Any]])
        #expect(data.count == 3)
        #expect(data.allSatisfy { $0["along_km"] is Double && $0["detour_km"] is Double })
    }
}

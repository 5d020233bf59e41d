import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct StationsEndpointTests: OnSampleApp {
    @Test func listIsPagedWithMetaAndLabelledSample() throws {
        let res = try app.test(.GET, "/v1/stations?state=NSW&limit=3&offset=2")
        #expect(res.status == .ok)
        let (data, meta) = try AppTestSupport.list(res)
        #expect(data.count == 3)
        #expect(meta["limit"] as? Int == 3)
        #expect(meta["offset"] as? Int == 2)
        // Fuel stations only by default (issue 48 §11): the sample's 918 NSW EV chargers are left out.
        #expect((meta["total"] as? Int ?? 0) > 2000)
        #expect(meta["source"] as? String == "sample")
        #expect(meta["as_of"] as? String == "2026-01-15T02:30:53Z")
        #expect(data.allSatisfy { $0["state"] as? String == "NSW" })
        #expect(res.headers.first(name: "Cache-Control") == "public, max-age=60")
        #expect(res.headers.first(name: "Last-Modified") != nil)
    }

    @Test func nearbySortsByDistanceWithinTheRadius() throws {
        let res = try app.test(.GET, "/v1/stations?near=-33.8688,151.2093&radius_km=3")
        let data = try AppTestSupport.list(res).data
        let distances = data.compactMap { $0["distance_km"] as? Double }
        #expect(!data.isEmpty)
        #expect(distances.count == data.count)
        #expect(distances == distances.sorted())
        #expect(distances.allSatisfy { $0 <= 3 })
    }

    @Test func priceSortNeedsAFuelAndOrdersByThatFuel() throws {
        #expect(try app.test(.GET, "/v1/stations?sort=price").status == .badRequest)
        let res = try app.test(.GET, "/v1/stations?state=VIC&fuel=U91&sort=price&limit=20")
        let data = try AppTestSupport.list(res).data
        let prices = data.map { station in
            ((station["prices"] as? [[String: Any]]) ?? []).first { $0["fuel"] as? String == "U91" }?["price"] as? Double ?? -1
        }
        #expect(prices.count == 20)
        #expect(prices == prices.sorted())
        #expect(!prices.contains(-1))
    }

    @Test func bboxKeepsStationsInsideTheViewport() throws {
        let res = try app.test(.GET, "/v1/stations?bbox=-34.0,150.9,-33.7,151.3&limit=500")
        let data = try AppTestSupport.list(res).data
        #expect(!data.isEmpty)
        for station in data {
            let location = try require(station["location"] as? [String: Double])
            #expect((-34.0 ... -33.7).contains(location["latitude"]!))
            #expect((150.9...151.3).contains(location["longitude"]!))
        }
    }

    @Test func favouritesComeBackInTheOrderAsked() throws {
        let res = try app.test(.GET, "/v1/stations?ids=5,2,9")
        let ids = try AppTestSupport.list(res).data.compactMap { $0["id"] as? Int }
        #expect(ids == [5, 2, 9])
    }

    @Test func brandFilterIgnoresCase() throws {
        let res = try app.test(.GET, "/v1/stations?brand=ampol&limit=500")
        let brands = Set(try AppTestSupport.list(res).data.compactMap { $0["brand"] as? String })
        #expect(brands == ["Ampol"])
    }

    @Test func detailHasEveryPriceAndVICSaysItsDelay() throws {
        let vic = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .VIC })
        let res = try app.test(.GET, "/v1/stations/\(vic.id.rawValue)")
        let json = try AppTestSupport.json(res)
        let data = try require(json["data"] as? [String: Any])
        #expect(data["id"] as? Int == vic.id.rawValue)
        #expect(data["name"] as? String == vic.station.name)
        #expect((data["prices"] as? [Any])?.count == vic.prices.count)
        #expect(data["data_delay_hours"] as? Int == 24)
        #expect((json["meta"] as? [String: Any])?["source"] as? String == "sample")
    }

    @Test func waStationCarriesTomorrowWithAVerdict() throws {
        let wa = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .WA && $0.prices.contains { $0.tomorrow != nil } })
        let data = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(wa.id.rawValue)"))["data"] as? [String: Any])
        let tomorrow = try require((data["prices"] as? [[String: Any]])?.compactMap { $0["tomorrow"] as? [String: Any] }.first)
        #expect(tomorrow["day"] as? String == "2026-04-23")
        #expect(["today_cheaper", "tomorrow_cheaper", "same"].contains(tomorrow["verdict"] as? String ?? ""))
    }

    @Test(arguments: ["/v1/stations/0", "/v1/stations/abc", "/v1/stations/99999999", "/v1/stations/-1"])
    func unknownStationsAre404(path: String) throws {
        let res = try app.test(.GET, path)
        #expect(res.status == .notFound)
        #expect(try AppTestSupport.json(res)["error"] as? Bool == true)
    }

    @Test func etagGives304AndChangesWithTheQuery() throws {
        let first = try app.test(.GET, "/v1/stations/1")
        let etag = try require(first.headers.first(name: "ETag"))
        let again = try app.test(.GET, "/v1/stations/1", headers: ["If-None-Match": etag])
        #expect(again.status == .notModified)
        #expect(again.body.isEmpty)
        let list = try app.test(.GET, "/v1/stations?state=WA")
        let listTag = try require(list.headers.first(name: "ETag"))
        #expect(try app.test(.GET, "/v1/stations?state=WA", headers: ["If-None-Match": listTag]).status == .notModified)
        #expect(try app.test(.GET, "/v1/stations?state=VIC").headers.first(name: "ETag") != listTag)
    }

    @Test(arguments: [
        ("fuel=XYZ", "valid codes: U91"), ("state=XX", "valid values: NSW"),
        ("near=200,1", "latitude must be between -90 and 90, got 200"), ("near=1", "lat,lng"), ("near=1,2,3", "lat,lng"),
        ("near=,151", "lat,lng"), ("near=-33,", "lat,lng"), ("near=-33,500", "longitude must be between -180 and 180, got 500"), ("radius_km=5", "needs near"),
        ("near=-33.8,151.2&radius_km=51", "radius_km"), ("bbox=1,2,3", "minLat,minLng,maxLat,maxLng"),
        ("bbox=-33,151,-34,152", "bbox"), ("limit=0", "limit"), ("limit=501", "limit"), ("offset=-1", "offset"),
        ("sort=height", "sort must be one of"), ("sort=distance", "needs near"), ("ids=1,x", "ids"),
        ("ids=" + (1...101).map(String.init).joined(separator: ","), "at most 100"), ("brand=", "brand"),
    ])
    func badParametersAre400sThatNameTheParameter(query: String, mentions: String) throws {
        let res = try app.test(.GET, "/v1/stations?\(query)")
        #expect(res.status == .badRequest)
        let reason = try AppTestSupport.json(res)["reason"] as? String ?? ""
        #expect(reason.contains(mentions), "reason was: \(reason)")
    }

    @Test func aPointAndAChoiceAreReadWhateverTheirSpacingAndCase() throws {
        let plain = try app.test(.GET, "/v1/stations?near=-33.8688,151.2093&fuel=U91&sort=price")
        #expect(plain.status == .ok)
        let spaced = try app.test(.GET, "/v1/stations?near=-33.8688,%20151.2093&fuel=U91&sort=PRICE")
        #expect(spaced.status == .ok)
        let ids = { (res: TestResponse) in try AppTestSupport.list(res).data.compactMap { $0["id"] as? Int } }
        #expect(try ids(spaced) == ids(plain))
        #expect(try !ids(plain).isEmpty)
    }

    @Test func wrongMethodIs405WithAllow() throws {
        let res = try app.test(.POST, "/v1/stations")
        #expect(res.status == .methodNotAllowed)
        #expect(res.headers.first(name: "Allow") == "GET, HEAD, OPTIONS")
    }
}

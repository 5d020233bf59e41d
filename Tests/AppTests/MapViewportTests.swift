import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `compact=true` pins and `cluster=true` grid cells for map clients.
@Suite struct MapViewportTests: OnSampleApp {
    /// All of NSW (the sample's 3,289 stations span it): the largest page a map can ask for.
    static let nsw = "bbox=-37.6,140.9,-28.1,153.7"

    @Test func aStateWideCompactViewportOf500StationsStaysUnder40KB() throws {
        let res = try app.test(.GET, "/v1/stations?\(Self.nsw)&fuel=U91&compact=true&limit=500")
        #expect(res.status == .ok)
        let body = try AppTestSupport.json(res)
        let data = try require(body["data"] as? [[String: Any]])
        #expect(data.count > 250 && data.count <= 500, "a spread of at most 500 pins, got \(data.count)")
        #expect(res.body.count < 40_000, "compact page is \(res.body.count) bytes")
        let full = try app.test(.GET, "/v1/stations?\(Self.nsw)&fuel=U91&limit=500")
        #expect(full.body.count > 4 * res.body.count)
        #expect(res.headers.first(name: "ETag") != nil)
    }

    /// Every pin of a viewport, by plain compact pages (`offset` asks for pages, never a spread).
    func allPins(_ query: String) throws -> [[String: Any]] {
        var pins: [[String: Any]] = []
        while true {
            let page = try AppTestSupport.list(try app.test(.GET, "/v1/stations?\(query)&compact=true&limit=500&offset=\(pins.count)")).data
            pins += page
            if page.count < 500 { return pins }
        }
    }

    @Test func moreStationsThanTheLimitGiveTheCheapestPinOfEachGridCell() throws {
        let query = "\(Self.nsw)&fuel=U91"
        let body = try AppTestSupport.json(try app.test(.GET, "/v1/stations?\(query)&compact=true&limit=500"))
        let meta = try require(body["meta"] as? [String: Any])
        let data = try require(body["data"] as? [[String: Any]])
        let everything = try allPins(query)
        #expect(everything.count > 2_000)
        #expect(meta["sampled"] as? Bool == true)
        #expect(meta["sampling"] as? String == "cheapest_per_cell")
        #expect(meta["total"] as? Int == everything.count, "total counts every match")
        let shownCell = try require(meta["cell_degrees"] as? Double)
        let cell = try require(CheapestPerCell.ladder.min { abs($0 - shownCell) < abs($1 - shownCell) })
        #expect(abs(cell - shownCell) < 0.000_001)

        // Brute force over every match: one pin per occupied cell, the cheapest (priced first, then lowest id).
        let snapshot = AppTestSupport.sampleDataset.snapshot
        func key(_ pin: [String: Any]) throws -> CheapestPerCell.CellKey {
            let id = try require(pin["id"] as? Int)
            return CheapestPerCell.CellKey(try require(snapshot[StationID(id)]).station.location, cell: cell)
        }
        func rank(_ pin: [String: Any]) -> (Double, Int) { ((pin["price"] as? Double) ?? .infinity, pin["id"] as? Int ?? 0) }
        var cheapest: [CheapestPerCell.CellKey: [String: Any]] = [:]
        for pin in everything {
            let cellKey = try key(pin)
            if let current = cheapest[cellKey], rank(current) <= rank(pin) { continue }
            cheapest[cellKey] = pin
        }
        #expect(data.count == cheapest.count)
        #expect(Set(data.compactMap { $0["id"] as? Int }) == Set(cheapest.values.compactMap { $0["id"] as? Int }))
        // Spread: pins reach both ends of the state, where the first 500 ids would not.
        let latitudes = data.compactMap { ($0["location"] as? [Double])?.first }
        let allLatitudes = everything.compactMap { ($0["location"] as? [Double])?.first }
        #expect(try require(latitudes.max()) - require(latitudes.min()) > 0.9 * (try require(allLatitudes.max()) - require(allLatitudes.min())))
        #expect(try require(latitudes.min()) < -36 && require(latitudes.max()) > -29.5)
    }

    @Test func askingForAPageOrAnOrderGivesPlainPagesAndFewMatchesComeWhole() throws {
        for extra in ["offset=0", "sort=name", "after=1"] {
            let body = try AppTestSupport.json(try app.test(.GET, "/v1/stations?\(Self.nsw)&fuel=U91&compact=true&limit=500&\(extra)"))
            let meta = try require(body["meta"] as? [String: Any])
            #expect(meta["sampled"] as? Bool == false, "\(extra)")
            #expect(meta["sampling"] == nil)
            #expect((body["data"] as? [Any])?.count == 500, "\(extra)")
        }
        let sydney = "bbox=-33.9,151.15,-33.85,151.25&fuel=U91"
        let few = try AppTestSupport.json(try app.test(.GET, "/v1/stations?\(sydney)&compact=true&limit=500"))
        let plain = try AppTestSupport.json(try app.test(.GET, "/v1/stations?\(sydney)&compact=true&limit=500&offset=0"))
        #expect((few["meta"] as? [String: Any])?["sampled"] as? Bool == false)
        let ids = try require(few["data"] as? [[String: Any]]).compactMap { $0["id"] as? Int }
        #expect(!ids.isEmpty && ids.count < 500)
        #expect(ids == (try require(plain["data"] as? [[String: Any]])).compactMap { $0["id"] as? Int })
    }

    /// Pins are the list's stations, so the list's meta holds: favourites say which ids are gone, and a page in id
    /// order names where the next starts, the same as the full list's.
    @Test func compactFavouritesAndIdPagesCarryTheListsMeta() throws {
        let favourites = try AppTestSupport.list(try app.test(.GET, "/v1/stations?ids=1,999999&compact=true")).meta
        #expect(favourites["missing"] as? [Int] == [999999], "\(favourites)")
        var after = 5_000, seen: [Int] = []
        for _ in 0..<3 {
            let path = "/v1/stations?after=\(after)&limit=2"
            let pins = try AppTestSupport.list(try app.test(.GET, path + "&compact=true"))
            let full = try AppTestSupport.list(try app.test(.GET, path)).meta
            #expect(pins.meta["next_after"] as? Int == full["next_after"] as? Int && pins.meta["next_after"] != nil, "\(pins.meta)")
            let ids = pins.data.compactMap { $0["id"] as? Int }
            #expect(ids.count == 2 && ids.allSatisfy { $0 > after } && Set(ids).isDisjoint(with: seen))
            seen += ids
            after = try require(pins.meta["next_after"] as? Int)
        }
        let spread = try AppTestSupport.list(try app.test(.GET, "/v1/stations?\(Self.nsw)&compact=true&limit=50")).meta
        #expect(spread["sampled"] as? Bool == true && spread["next_after"] == nil, "a spread is no page")
    }

    @Test func aCompactPinHasOnlyIdLocationBrandAndTheAskedPrice() throws {
        let res = try app.test(.GET, "/v1/stations?ids=1&fuel=U91&compact=true")
        let pin = try require((try AppTestSupport.json(res)["data"] as? [[String: Any]])?.first)
        let entry = try require(AppTestSupport.sampleDataset.snapshot[StationID(1)])
        #expect(Set(pin.keys) == ["id", "brand", "location", "price"])
        #expect(pin["brand"] as? String == entry.station.brand)
        let location = try require(pin["location"] as? [Double])
        #expect(abs(location[0] - entry.station.location.latitude) < 0.00001)
        #expect(abs(location[1] - entry.station.location.longitude) < 0.00001)
        #expect(pin["price"] as? Double == entry.price(of: .U91).map { Double($0.price.tenths) / 10 })
    }

    @Test func aCompactWAPinCarriesTomorrowsPrice() throws {
        let wa = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .WA && $0.price(of: .U91)?.tomorrow != nil })
        let pin = try require((try AppTestSupport.json(try app.test(.GET, "/v1/stations?ids=\(wa.id.rawValue)&fuel=U91&compact=true"))["data"] as? [[String: Any]])?.first)
        #expect(pin["tomorrow"] as? Double == Double(wa.price(of: .U91)!.tomorrow!.price.tenths) / 10)
    }

    @Test func withSeveralFuelsAPinShowsTheLowestAndNamesIt() throws {
        let entry = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.price(of: .U91) != nil && $0.price(of: .E10) != nil && $0.price(of: .U91)!.price != $0.price(of: .E10)!.price })
        let pin = try require((try AppTestSupport.json(try app.test(.GET, "/v1/stations?ids=\(entry.id.rawValue)&fuel=U91,E10&compact=true"))["data"] as? [[String: Any]])?.first)
        let lowest = [entry.price(of: .U91)!, entry.price(of: .E10)!].min { $0.price < $1.price }!
        #expect(pin["fuel"] as? String == lowest.fuel.rawValue)
        #expect(pin["price"] as? Double == Double(lowest.price.tenths) / 10)
    }

    @Test func clustersCountEveryMatchOnceWithTheirLowestPrice() throws {
        let res = try app.test(.GET, "/v1/stations?\(Self.nsw)&fuel=U91&cluster=true")
        #expect(res.status == .ok)
        let (clusters, meta) = try AppTestSupport.list(res)
        let total = try AppTestSupport.list(try app.test(.GET, "/v1/stations?\(Self.nsw)&fuel=U91")).meta["total"] as? Int
        #expect(clusters.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == total)
        #expect(meta["stations"] as? Int == total)
        #expect(meta["total"] as? Int == clusters.count)
        // Larger side 12.8 degrees / 16 cells.
        #expect(meta["cell_degrees"] as? Double == 0.8)
        #expect(clusters.count > 10 && clusters.count < 256)
        let counts = clusters.compactMap { $0["count"] as? Int }
        #expect(counts == counts.sorted(by: >))
        // The fullest cell's lowest price is the cheapest counted U91 among its stations.
        let top = clusters[0]
        let id = try require(top["min_price_station_id"] as? Int)
        let station = try require((try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(id)"))["data"] as? [String: Any]))
        let u91 = (station["prices"] as? [[String: Any]])?.first { $0["fuel"] as? String == "U91" }
        #expect(u91?["price"] as? Double == top["min_price"] as? Double)
        let centroid = try require(top["centroid"] as? [String: Double])
        #expect((-37.6 ... -28.1).contains(centroid["latitude"]!))
    }

    @Test func zoomSetsTheCellSizeAndFinerCellsMakeMoreClusters() throws {
        let coarse = try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&cluster=true&zoom=5"))
        let fine = try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&cluster=true&zoom=9"))
        #expect((coarse["meta"] as? [String: Any])?["cell_degrees"] as? Double == 2.8125)
        #expect((fine["meta"] as? [String: Any])?["cell_degrees"] as? Double == 0.175781)
        #expect(((coarse["data"] as? [Any])?.count ?? 0) < ((fine["data"] as? [Any])?.count ?? 0))
        // Without a fuel there is no price to show.
        #expect(((coarse["data"] as? [[String: Any]])?.first?["min_price"]) is NSNull)
    }

    @Test func theWholeCountryAtTheFinestZoomComesBackInAtMost500CellsCountingEveryStation() throws {
        let (clusters, meta) = try AppTestSupport.list(try app.test(.GET, "/v1/stations?cluster=true&zoom=22"))
        let stations = try AppTestSupport.list(try app.test(.GET, "/v1/stations?limit=1")).meta["total"] as? Int
        #expect(clusters.count <= 500 && clusters.count > 250)
        #expect(clusters.reduce(0) { $0 + ($1["count"] as? Int ?? 0) } == stations)
        // Zoom 22 asks for 0.001-degree cells; the answer says how far they were doubled.
        let degrees = try require(meta["cell_degrees"] as? Double)
        #expect(degrees > 0.001 && (degrees / 0.001).rounded() == degrees / 0.001)
        // One step finer would have opened more than 500 cells: the smallest size that fits was chosen.
        let finer = Set(AppTestSupport.sampleDataset.snapshot.entries.filter { $0.station.location.isValid }.map { entry in
            let cell = degrees / 2
            return "\(Int((entry.station.location.latitude / cell).rounded(.down))),\(Int((entry.station.location.longitude / cell).rounded(.down)))"
        })
        #expect(finer.count > 500)
    }

    @Test func clusterAndCompactRulesAreBadRequestsNamingTheParameter() throws {
        for (path, name) in [("cluster=yes", "cluster"), ("compact=1", "compact"), ("zoom=x", "zoom"), ("cluster=true&zoom=23", "zoom")] {
            let res = try app.test(.GET, "/v1/stations?" + path)
            #expect(res.status == .badRequest, "\(path)")
            #expect((try AppTestSupport.json(res)["reason"] as? String ?? "").contains(name), "\(path)")
        }
    }
}

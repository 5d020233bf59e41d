import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `vs_average` on station prices, `/v1/fuels`, `/v1/brands` and `/v1/stations/:id/history`, on the sample data.
@Suite struct InsightsEndpointTests: OnSampleApp {
    static func prices(_ station: [String: Any]) -> [[String: Any]] { station["prices"] as? [[String: Any]] ?? [] }

    @Test func everyPriceSaysHowFarItIsFromItsStatesAverage() throws {
        let res = try app.test(.GET, "/v1/stations?state=NSW&fuel=U91&sort=price&limit=100")
        let stations = try AppTestSupport.list(res).data
        let average = try require(
            (try AppTestSupport.json(try app.test(.GET, "/v1/averages?state=NSW&fuel=U91"))["data"] as? [[String: Any]])?.first?["average"] as? Double)
        var compared = 0
        for station in stations {
            for price in Self.prices(station) {
                #expect(price.keys.contains("vs_average"), "\(price)")
                guard price["fuel"] as? String == "U91", let versus = price["vs_average"] as? Double else { continue }
                let value = try require(price["price"] as? Double)
                #expect(abs(versus - (value - average)) <= 0.051, "\(value) vs \(average): \(versus)")
                compared += 1
            }
        }
        #expect(compared > 50)
        // Sorted by price, the cheapest are below the average.
        let first = try require(Self.prices(stations[0]).first { $0["fuel"] as? String == "U91" }?["vs_average"] as? Double)
        #expect(first < 0)
    }

    @Test func stalePricesAndFavouritesCarryVsAverageToo() throws {
        // 2593: NSW LPG 89.9 from 2023, still listed by the full feed: current, compared with NSW's average.
        let detail = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/2593"))["data"] as? [String: Any])
        let lpg = try require(Self.prices(detail).first { $0["fuel"] as? String == "LPG" })
        #expect(lpg["stale"] == nil)
        #expect(lpg["vs_average"] as? Double == -27.3)
        #expect(lpg["vs_average_of"] as? String == "NSW")
        // A Perth station is compared with Perth's average, and says so.
        let perth = try require((try AppTestSupport.json(try app.test(.GET, "/v1/stations?near=-31.9523,115.8613&radius_km=10&fuel=U91&limit=1"))["data"] as? [[String: Any]])?.first)
        #expect(Self.prices(perth).contains { $0["vs_average_of"] as? String == "perth" }, "\(perth)")
        let favourites = try AppTestSupport.list(try app.test(.GET, "/v1/stations?ids=3300,3370")).data
        #expect(favourites.flatMap(Self.prices).contains { $0["vs_average"] is Double })
    }

    @Test func theSharePageSaysItInWords() throws {
        let stations = try AppTestSupport.list(try app.test(.GET, "/v1/stations?state=NSW&fuel=U91&sort=price&limit=1")).data
        let id = try require(stations.first?["id"] as? Int)
        let versus = try require(Self.prices(stations[0]).first { $0["fuel"] as? String == "U91" }?["vs_average"] as? Double)
        let page = try app.test(.GET, "/stations/\(id)", headers: ["Accept": "text/html"]).bodyString
        #expect(page.contains("Unleaded 91: \(PriceTenths(cents: -versus)) c/L below the NSW average"), "\(page.prefix(3000))")
    }

    @Test func versusWordsRoundAndSayAtTheAverageWithinAHalfTenth() {
        #expect(StationSharePage.versusWords(-4.23, state: .NSW) == "4.2 c/L below the NSW average")
        #expect(StationSharePage.versusWords(1.05, state: .VIC) == "1.1 c/L above the VIC average")
        #expect(StationSharePage.versusWords(0.049, state: .WA) == "at the WA average")
        #expect(StationSharePage.versusWords(-0.049, state: .WA) == "at the WA average")
    }

    // MARK: Reference lists

    @Test func fuelsListEveryCodeWithItsStatesAndStationCount() throws {
        let res = try app.test(.GET, "/v1/fuels")
        #expect(res.status == .ok)
        let rows = try AppTestSupport.list(res).data
        #expect(rows.map { $0["fuel"] as? String } == FuelType.allCases.map(\.rawValue))
        let u91 = try require(rows.first { $0["fuel"] as? String == "U91" })
        #expect(u91["fuel_name"] as? String == "Unleaded 91")
        #expect((u91["states"] as? [String])?.contains("NSW") == true)
        #expect((u91["states"] as? [String])?.contains("QLD") == false)
        let nswU91 = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&fuel=U91&limit=1"))["meta"] as? [String: Any])["total"] as? Int
        #expect((u91["station_count"] as? Int ?? 0) > (nswU91 ?? .max))
        try expectRevalidates("/v1/fuels")
    }

    @Test func brandsAreMostCommonFirstPerStateAndOverall() throws {
        let rows = try AppTestSupport.list(try app.test(.GET, "/v1/brands?state=nsw")).data
        let counts = rows.compactMap { $0["station_count"] as? Int }
        #expect(counts.count == rows.count && rows.count > 5)
        #expect(counts == counts.sorted(by: >))
        let top = try require(rows.first?["brand"] as? String)
        let filtered = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&brand=\(top.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&limit=1"))["meta"] as? [String: Any])
        #expect(filtered["total"] as? Int == counts[0])
        let all = try AppTestSupport.list(try app.test(.GET, "/v1/brands")).data
        #expect(all.compactMap { $0["station_count"] as? Int }.reduce(0, +) > counts.reduce(0, +))
        let bad = try app.test(.GET, "/v1/brands?state=Victoria")
        #expect(bad.status == .badRequest)
        #expect(bad.bodyString.contains("state"))
        try expectRevalidates("/v1/brands?state=WA")
    }

    // MARK: Station history

    /// A VIC station from the recorded 50-day panel with the most U91 changes.
    func vicPanelStation() throws -> (id: Int, marks: [PriceMark]) {
        let dataset = AppTestSupport.sampleDataset
        let best = dataset.snapshot.entries.filter { $0.station.state == .VIC }
            .map { ($0.id, dataset.stationHistory.marks($0.id, .U91)) }
            .max { $0.1.count < $1.1.count }
        let (id, marks) = try require(best)
        return (id.rawValue, marks)
    }

    @Test func historyIsSeededFromTheRecordedVICDays() throws {
        let (id, marks) = try vicPanelStation()
        #expect(marks.count > 5, "the VIC panel's 50 recorded days should hold several changes")
        let res = try app.test(.GET, "/v1/stations/\(id)/history?fuel=U91&days=90")
        #expect(res.status == .ok)
        let data = try require(try AppTestSupport.json(res)["data"] as? [String: Any])
        #expect(data["station_id"] as? Int == id)
        #expect(data["state"] as? String == "VIC")
        #expect(data["days"] as? Int == 90)
        let changes = try require(data["changes"] as? [[String: Any]])
        let daily = try require(data["daily"] as? [[String: Any]])
        #expect(changes.count > 5)
        let days = daily.compactMap { $0["day"] as? String }
        #expect(days == days.sorted() && Set(days).count == days.count)
        #expect(days.count >= 40 && days.count <= 90)
        #expect(days.last == data["through"] as? String)
        for day in daily {
            let low = try require(day["low"] as? Double), high = try require(day["high"] as? Double), close = try require(day["close"] as? Double)
            #expect(low <= close && close <= high)
        }
        // The latest close is the station's current price.
        let detail = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(id)"))["data"] as? [String: Any])
        let current = try require(Self.prices(detail).first { $0["fuel"] as? String == "U91" }?["price"] as? Double)
        #expect(daily.last?["close"] as? Double == current)
        // A shorter window is a suffix of the longer one.
        let week = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(id)/history?fuel=u91&days=7"))["data"] as? [String: Any])
        #expect((week["daily"] as? [[String: Any]])?.compactMap { $0["day"] as? String } == Array(days.suffix(7)))
        try expectRevalidates("/v1/stations/\(id)/history?fuel=U91")
    }

    @Test func historyValidatesItsParameters() throws {
        let (id, _) = try vicPanelStation()
        for (target, parameter) in [
            ("/v1/stations/\(id)/history", "fuel"), ("/v1/stations/\(id)/history?fuel=XYZ", "fuel"),
            ("/v1/stations/\(id)/history?fuel=U91&days=0", "days"), ("/v1/stations/\(id)/history?fuel=U91&days=91", "days"),
            ("/v1/stations/\(id)/history?fuel=U91&days=abc", "days"),
        ] {
            let res = try app.test(.GET, target)
            #expect(res.status == .badRequest, "\(target)")
            let json = try AppTestSupport.json(res)
            #expect(json["error"] as? Bool == true)
            #expect((json["reason"] as? String)?.hasPrefix(parameter) == true || (json["reason"] as? String)?.contains(" \(parameter) ") == true, "\(target): \(json)")
        }
        #expect(try app.test(.GET, "/v1/stations/99999999/history?fuel=U91").status == .notFound)
        #expect(try app.test(.GET, "/v1/stations/abc/history?fuel=U91").status == .notFound)
    }

    @Test func aFuelTheStationNeverSoldIsAnEmptyHistory() throws {
        let (id, _) = try vicPanelStation()
        let res = try app.test(.GET, "/v1/stations/\(id)/history?fuel=CNG")
        #expect(res.status == .ok)
        let data = try require(try AppTestSupport.json(res)["data"] as? [String: Any])
        #expect((data["changes"] as? [Any])?.isEmpty == true)
        #expect((data["daily"] as? [Any])?.isEmpty == true)
    }

    func expectRevalidates(_ target: String) throws {
        let first = try app.test(.GET, target)
        let etag = try require(first.headers.first(name: "ETag"))
        #expect(try app.test(.GET, target, headers: ["If-None-Match": etag]).status == .notModified)
    }
}

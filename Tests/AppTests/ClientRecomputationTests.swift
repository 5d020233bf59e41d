import Foundation
import Testing
import TestSupport
@testable import App

/// Issue 48 §7: a client recomputing `fill_cost`, `saving` and `vs_average` from the response alone, in decimal
/// arithmetic with the README's rules (half a cent up; a tenth of a cent, halves away from zero), gets the served
/// figures: 20 nearby lists, and every station of every sample state against `/v1/averages`.
@Suite struct ClientRecomputationTests {
    /// A JSON number as the decimal it was written as.
    static func decimal(_ value: Any?) -> Decimal? {
        (value as? NSNumber).flatMap { Decimal(string: $0.stringValue) }
    }

    static func rounded(_ value: Decimal, places: Int) -> Decimal {
        var input = value
        var output = Decimal()
        NSDecimalRound(&output, &input, places, .plain)
        return output
    }

    @Test func fillCostsAndSavingsFollowFromTheListedDistances() throws {
        let app = try AppTestSupport.sharedSampleApp()
        var random = SplitMix64(seed: 48)
        let centres = [(-33.87, 151.21), (-37.81, 144.96), (-31.95, 115.86), (-35.28, 149.13), (-33.75, 150.69)]
        var checked = 0
        for query in 0..<20 {
            let (lat, lng) = centres[query % centres.count]
            let point = (lat + Double.random(in: -0.2...0.2, using: &random), lng + Double.random(in: -0.2...0.2, using: &random))
            let litres = [40, 50, 37.5, 61.25, 12.34][Int.random(in: 0..<5, using: &random)]
            let consumption = [8, 9.5, 6.25, 11.11, 14][Int.random(in: 0..<5, using: &random)]
            let path = "/v1/stations?near=\(point.0),\(point.1)&radius_km=15&fuel=U91&litres=\(litres)&l_per_100km=\(consumption)&limit=200"
            let body = try AppTestSupport.json(try app.test(.GET, path))
            let fill = try require((body["meta"] as? [String: Any])?["fill"] as? [String: Any], path)
            let servedLitres = try require(Self.decimal(fill["litres"]))
            let servedConsumption = try require(Self.decimal(fill["l_per_100km"]))
            let nearest = Self.decimal(fill["nearest_fill_cost"])
            for station in try require(body["data"] as? [[String: Any]]) {
                guard let cost = Self.decimal(station["fill_cost"]) else { continue }
                let price = try require(Self.decimal((station["prices"] as? [[String: Any]])?.first { $0["fuel"] as? String == "U91" }?["price"]))
                let distance = try require(Self.decimal(station["distance_km"]))
                let paid = servedLitres + 2 * distance * servedConsumption / 100
                #expect(Self.rounded(price * paid / 100, places: 2) == cost, "\(path) station \(station["id"]!)")
                if let nearest { #expect(Self.decimal(station["saving"]) == nearest - cost) }
                checked += 1
            }
        }
        #expect(checked > 200)
    }

    @Test func everyVersusAverageFollowsFromTheServedAverages() throws {
        let app = try AppTestSupport.sharedSampleApp()
        var checked = 0
        for state in ["NSW", "ACT", "VIC", "WA"] {
            var averages: [String: Decimal] = [:]
            for row in try AppTestSupport.list(try app.test(.GET, "/v1/averages?state=\(state)")).data {
                let of = (row["region"] as? String) == "metro" ? "perth" : (row["region"] as? String).map { _ in "regional" } ?? state
                averages["\(of) \(row["fuel"] as! String)"] = Self.decimal(row["average"])
            }
            var after: Int?
            while true {
                let page = try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=\(state)&limit=500" + (after.map { "&after=\($0)" } ?? "")))
                for station in try require(page["data"] as? [[String: Any]]) {
                    for price in station["prices"] as? [[String: Any]] ?? [] {
                        guard let served = Self.decimal(price["vs_average"]), let of = price["vs_average_of"] as? String else { continue }
                        let average = try require(averages["\(of) \(price["fuel"] as! String)"], "\(of)")
                        let value = try require(Self.decimal(price["price"]))
                        #expect(Self.rounded(value - average, places: 1) == served, "station \(station["id"]!) \(price["fuel"]!)")
                        checked += 1
                    }
                }
                guard let next = (page["meta"] as? [String: Any])?["next_after"] as? Int else { break }
                after = next
            }
        }
        #expect(checked > 5_000)
    }
}

import Foundation
import Fuel
import Testing
@testable import API
@testable import App

/// Issue 48 §5: a typo price (25.9) stays on its station and in its history, flagged, and never counts.
@Suite struct TypoPricesTests {
    @Test func typoPricesStayFlaggedOnTheStationAndInHistory() throws {
        let snapshot = AppTestSupport.sampleDataset.snapshot
        let judge = snapshot.judge
        let typos = snapshot.entries.flatMap { entry in
            entry.prices.filter { !PricePolicy.plausible.contains($0.price) }.map { (entry, $0) }
        }
        #expect(typos.contains { $0.0.id == StationID(3971) && $0.1.fuel == .U91 && $0.1.price == PriceTenths(tenths: 259) })
        let app = try AppTestSupport.sharedSampleApp()
        for (entry, price) in typos {
            #expect(judge.standing(of: price, at: entry.station).contains(.implausible))
            let body = try app.test(.GET, "/v1/stations/\(entry.id)").bodyString
            #expect(body.contains("\"fuel\":\"\(price.fuel.rawValue)\""), "\(entry.id)")
        }
        let history = try AppTestSupport.json(try app.test(.GET, "/v1/stations/3744/history?fuel=P98&days=90"))
        let data = try require(history["data"] as? [String: Any])
        let changes = try require(data["changes"] as? [[String: Any]])
        let typo = try require(changes.first { ($0["price"] as? Double) == 25.9 })
        #expect(typo["implausible"] as? Bool == true)
        let lows = try require(data["daily"] as? [[String: Any]]).compactMap { $0["low"] as? Double }
        #expect(!lows.isEmpty && lows.allSatisfy { $0 >= 50 })
        // The averages never see it.
        for average in AppTestSupport.sampleDataset.snapshot.averages.all { #expect(average.min >= PricePolicy.plausible.lowerBound) }
    }
}

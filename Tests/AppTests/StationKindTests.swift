import Foundation
import Fuel
import Testing
@testable import App

/// Issue 48 §11, §12: EV charging sites say `kind: ev` and stay out of lists and searches unless asked for by id;
/// NSW's AdBlue and VIC's opening hours are served.
@Suite struct StationKindTests {
    static let snapshot = AppTestSupport.sampleDataset.snapshot

    @Test func evChargersAreMarkedAndLeftOutOfListsAndSearches() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let chargers = Self.snapshot.entries.filter { $0.station.kind == .ev }
        #expect(chargers.count > 800 && chargers.allSatisfy(\.prices.isEmpty))
        let search = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations?q=bondi%20junction&limit=100"))["data"] as? [[String: Any]])
        #expect(!search.isEmpty && search.allSatisfy { $0["kind"] as? String == "fuel" })
        let charger = try require(chargers.first)
        let favourites = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations?ids=\(charger.id),1"))["data"] as? [[String: Any]])
        #expect(favourites.first?["kind"] as? String == "ev" && favourites.count == 2)
        // The domain filter the `kind=` parameter selects.
        var query = StationQuery(state: .NSW, limit: 500)
        query.kinds = .only(.ev)
        let index = FuelIndex(snapshot: Self.snapshot)
        #expect(try index.stations(matching: query).total == chargers.filter { $0.station.state == .NSW }.count)
        query.kinds = .any
        #expect(try index.stations(matching: query).total == Self.snapshot.entries.filter { $0.station.state == .NSW }.count)
    }

    @Test func adBlueAndOpeningHoursAreServedWherePublished() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let adBlue = try require(Self.snapshot.entries.first { $0.station.facts?.adBlue == true })
        let station = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(adBlue.id)"))["data"] as? [String: Any])
        #expect(station["adblue"] as? Bool == true)
        let vic = try require(Self.snapshot.entries.first { $0.station.access?.hours != nil && $0.station.access?.hours?.isAlwaysOpen == false })
        let hours = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(vic.id)"))["data"] as? [String: Any])
        let days = try require(hours["opening_hours"] as? [[String: Any]])
        #expect(days.count == 7 && days.first?["day"] as? String == "mon")
        let wa = try require(Self.snapshot.entries.first { $0.station.state == .WA })
        let plain = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations/\(wa.id)"))["data"] as? [String: Any])
        #expect(plain["opening_hours"] is NSNull && plain["adblue"] is NSNull && plain["kind"] as? String == "fuel")
    }
}

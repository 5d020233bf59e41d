import Foundation
import Fuel
import Testing
@testable import App

/// EV charging sites say `kind: ev` and stay out of lists and searches unless asked for by id or by `kind=`;
/// NSW's AdBlue and VIC's opening hours are served.
@Suite struct StationKindTests {
    static let snapshot = AppTestSupport.sampleDataset.snapshot

    @Test func evChargersAreMarkedAndLeftOutOfListsAndSearches() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let chargers = Self.snapshot.entries.filter { $0.station.kind == .ev }
        #expect(chargers.count > 800 && chargers.allSatisfy(\.prices.isEmpty))
        let search = try AppTestSupport.list(try app.test(.GET, "/v1/stations?q=bondi%20junction&limit=100")).data
        #expect(!search.isEmpty && search.allSatisfy { $0["kind"] as? String == "fuel" })
        let charger = try require(chargers.first)
        let favourites = try AppTestSupport.list(try app.test(.GET, "/v1/stations?ids=\(charger.id),1")).data
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

    @Test func kindChoosesWhichStationsAListKeeps() throws {
        let app = try AppTestSupport.sharedSampleApp()
        func total(_ query: String) throws -> Int {
            let meta = try require(try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&limit=1\(query)"))["meta"] as? [String: Any])
            return try require(meta["total"] as? Int)
        }
        let chargers = Self.snapshot.entries.filter { $0.station.kind == .ev && $0.station.state == .NSW }.count
        let usual = try total("")
        #expect(try total("&kind=fuel") == usual)
        #expect(try total("&kind=ev") == chargers)
        #expect(try total("&kind=any") == usual + chargers)
        let ev = try AppTestSupport.list(try app.test(.GET, "/v1/stations?state=NSW&kind=ev&limit=50")).data
        #expect(!ev.isEmpty && ev.allSatisfy { $0["kind"] as? String == "ev" })
        let charger = try require(Self.snapshot.entries.first { $0.station.kind == .ev })
        let fuelOnly = try AppTestSupport.list(try app.test(.GET, "/v1/stations?ids=\(charger.id),1&kind=fuel")).data
        #expect(fuelOnly.count == 1 && fuelOnly.first?["kind"] as? String == "fuel")
        let bad = try app.test(.GET, "/v1/stations?kind=diesel")
        #expect(bad.status == .badRequest && bad.bodyString.contains("kind must be one of fuel, ev, any"))
    }
}

import Foundation
import Fuel
import Testing
@testable import Providers

/// The join of `/api/sites` access facts onto RSS stations: by place (≤ 50 m) plus an agreeing name or address.
@Suite struct FuelWatchSiteFactsTests {
    private let fetchedAt = Fixture.instant("2026-04-22T16:15:00+08:00")

    private func facts() throws -> FuelWatchSiteFacts {
        try FuelWatchSiteFacts.adapt(try Fixture.data("wa_api_sites_fuelType_ULP.json"), fetchedAt: fetchedAt)
    }

    private func rssStations() throws -> [StationRecord] {
        try FuelWatchRSSAdapter.adapt(
            try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml"), product: .unleaded, day: .today, fetchedAt: fetchedAt
        ).update.stations
    }

    @Test func theRecordedSitesGiveFactsToTheThreeRSSStationsAtTheirKerbs() throws {
        let facts = try facts()
        #expect(facts.count == 6)
        let stations = try rssStations()
        #expect(stations.count == 380)
        let joined = facts.join(stations)
        #expect(joined.matched == 3)
        let informed = Dictionary(uniqueKeysWithValues: joined.stations.compactMap { station in station.access.map { (station.name, $0) } })
        // Renamed since 2019; same coordinates, same street number and street.
        #expect(informed["Caltex Woolworths Beckenham"] == StationAccess(open24h: true, membershipRequired: false, truckStop: false))
        #expect(informed["Coles Express Wanneroo"] == StationAccess(open24h: false, membershipRequired: false, truckStop: false))
        // "472-480 Great Eastern Hwy" agrees with the site's "472 Great Eastern Hwy".
        #expect(informed["Shell Fresh Trading Co Ascot"]?.open24h == false)
        #expect(informed.count == 3)
        // The closed-now observation of a daily fetch is not carried.
        #expect(joined.stations.allSatisfy { $0.access?.closedNow == nil })
    }

    @Test func nearbyStationsWhoseNameAndAddressDisagreeGetNothing() throws {
        // Puma Byford (8 Kardan Bvd) is the RSS station nearest Vibe Oakford Truckstop (1780 Thomas Rd), over 2 km away;
        // Caltex The Foodary Belmont lies about 200 m from Vibe Ascot: neither is guessed.
        let joined = try facts().join(try rssStations())
        for name in ["Puma Byford", "Caltex The Foodary Belmont"] {
            #expect(try #require(joined.stations.first { $0.name == name }).access == nil, "\(name)")
        }
    }

    private func station(_ id: String, name: String, address: String, metresNorth: Double) -> StationRecord {
        // Liberty Beckenham's kerb (-32.022054, 115.954779); a metre of latitude is 1/111,195 degree.
        StationRecord(
            key: StationKey(provider: .wa, sourceID: id), name: name, brand: "", address: address, suburb: "Beckenham", state: .WA,
            postcode: nil, location: Coordinate(latitude: -32.022054 + metresNorth / 111_195, longitude: 115.954779))
    }

    @Test func theDistanceLimitHoldsOnBothSidesOf50Metres() throws {
        let facts = try facts()
        let inside = facts.join([station("a", name: "Liberty Beckenham", address: "", metresNorth: 49)])
        #expect(inside.matched == 1 && inside.stations[0].access?.open24h == true)
        let outside = facts.join([station("a", name: "Liberty Beckenham", address: "", metresNorth: 51)])
        #expect(outside.matched == 0 && outside.stations[0].access == nil)
    }

    @Test func aNameOrAnAddressMustAgree() throws {
        let facts = try facts()
        #expect(facts.join([station("a", name: "liberty   BECKENHAM", address: "1 Other St", metresNorth: 0)]).matched == 1)
        #expect(facts.join([station("a", name: "Someone Else", address: "63 William Street", metresNorth: 0)]).matched == 1)
        #expect(facts.join([station("a", name: "Someone Else", address: "65 William St", metresNorth: 0)]).matched == 0)
        #expect(facts.join([station("a", name: "Someone Else", address: "63 Other St", metresNorth: 0)]).matched == 0)
    }

    @Test func anAmbiguousPairIsLeftUnmatched() throws {
        // Two RSS stations both agreeing with one site: neither gets its facts.
        let pair = try facts().join([
            station("a", name: "Liberty Beckenham", address: "", metresNorth: 0),
            station("b", name: "Caltex Woolworths Beckenham", address: "63 William St", metresNorth: 10),
        ])
        #expect(pair.matched == 0)
        #expect(pair.stations.allSatisfy { $0.access == nil })

        // One RSS station agreeing with two sites (the same site listed twice under new ids): unmatched too.
        let sites = try facts()
        let doubled = FuelWatchSiteFacts(sites: sites.sites + sites.sites.filter { $0.name == "Liberty Beckenham" }, fetchedAt: fetchedAt)
        let one = doubled.join([station("a", name: "Liberty Beckenham", address: "63 William St", metresNorth: 0)])
        #expect(one.matched == 0 && one.stations[0].access == nil)
    }
}

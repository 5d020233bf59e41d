import Foundation
import Testing

@testable import Fuel

@Suite struct StationQueryTests {
    let sydney = Coordinate(latitude: -33.8688, longitude: 151.2093)

    /// Five NSW stations spread east of Sydney's CBD (~1 km apart) and two in Melbourne.
    func index() -> FuelIndex {
        let nsw = ProviderUpdate(
            provider: .nsw,
            stations: [
                Fixture.station(.nsw, "a", name: "Zeta", brand: "Shell", latitude: -33.8688, longitude: 151.2093),
                Fixture.station(.nsw, "b", name: "alpha", brand: "Ampol", latitude: -33.8688, longitude: 151.2200),
                Fixture.station(.nsw, "c", name: "Beta", brand: "shell ", latitude: -33.8688, longitude: 151.2310),
                Fixture.station(.nsw, "d", name: "Gamma", brand: "BP", latitude: -33.8688, longitude: 151.2420),
                Fixture.station(.nsw, "e", name: "Delta", brand: "Shell", latitude: -33.8688, longitude: 151.3500),
            ],
            prices: [
                Fixture.price(.nsw, "a", 1_990), Fixture.price(.nsw, "a", 2_100, fuel: .DL),
                Fixture.price(.nsw, "b", 1_890),
                Fixture.price(.nsw, "c", 1_950), Fixture.price(.nsw, "c", 2_050, fuel: .DL),
                Fixture.price(.nsw, "d", 1_890, fuel: .DL),
                Fixture.price(.nsw, "e", 1_790),
            ],
            asOf: Fixture.now)
        let first = Fixture.merge(nsw)
        let vic = ProviderUpdate(
            provider: .vic,
            stations: [
                Fixture.station(.vic, "m1", brand: "Shell", state: .VIC, latitude: -37.81, longitude: 144.96),
                Fixture.station(.vic, "m2", brand: "7-Eleven", state: .VIC, latitude: -37.82, longitude: 144.97),
            ],
            prices: [Fixture.price(.vic, "m1", 1_850), Fixture.price(.vic, "m2", 1_700)], asOf: Fixture.now)
        return FuelIndex(snapshot: Fixture.merge(vic, into: first.snapshot, registry: first.registry).snapshot)
    }

    func ids(_ page: StationPage) -> [Int] { page.matches.map(\.station.id.rawValue) }

    @Test func withoutFiltersEveryStationComesBackInIdOrder() throws {
        let page = try index().stations(matching: StationQuery())
        #expect(page.total == 7)
        #expect(ids(page) == [1, 2, 3, 4, 5, 6, 7])
        #expect(page.matches.allSatisfy { $0.distanceKm == nil })
    }

    @Test func stateAndFuelFiltersCombine() throws {
        let index = index()
        #expect(ids(try index.stations(matching: StationQuery(state: .VIC))) == [6, 7])
        #expect(ids(try index.stations(matching: StationQuery(state: .NSW, fuel: .DL))) == [1, 3, 4])
        let page = try index.stations(matching: StationQuery(fuel: .DL))
        #expect(page.matches.map(\.price?.price.tenths) == [2_100, 2_050, 1_890])
    }

    @Test func brandMatchesIgnoringCaseAndSurroundingSpaces() throws {
        let page = try index().stations(matching: StationQuery(brand: "SHELL"))
        #expect(ids(page) == [1, 3, 5, 6])
        #expect(try index().stations(matching: StationQuery(brand: "Shel")).total == 0)
    }

    @Test func nearWithRadiusFiltersAndSortsByDistance() throws {
        let page = try index().stations(matching: StationQuery(near: sydney, radiusKm: 3.5))
        #expect(ids(page) == [1, 2, 3, 4])
        let distances = page.matches.map { $0.distanceKm! }
        #expect(distances == distances.sorted())
        #expect(distances[0] < 0.001)
        #expect(abs(distances[1] - 0.99) < 0.05)
    }

    @Test func nearWithoutRadiusOnlyAnnotatesDistances() throws {
        let page = try index().stations(matching: StationQuery(state: .VIC, near: sydney))
        #expect(page.total == 2)
        #expect(page.matches.allSatisfy { ($0.distanceKm ?? 0) > 700 })
    }

    @Test func sortingByPriceNeedsAFuel() {
        #expect(throws: QueryError.priceSortNeedsFuel) {
            try index().stations(matching: StationQuery(sort: .price))
        }
        #expect(throws: QueryError.distanceSortNeedsNear) {
            try index().stations(matching: StationQuery(sort: .distance))
        }
    }

    @Test func sortingByPriceLeavesOutStationsWithoutTheFuelAndBreaksTiesByDistance() throws {
        let page = try index().stations(matching: StationQuery(state: .NSW, fuel: .U91, near: sydney, sort: .price))
        #expect(ids(page) == [5, 2, 3, 1])
        let diesel = try index().stations(matching: StationQuery(fuel: .DL, sort: .price))
        #expect(ids(diesel) == [4, 3, 1])
    }

    @Test func sortingByNameIgnoresCase() throws {
        let page = try index().stations(matching: StationQuery(state: .NSW, sort: .name))
        #expect(page.matches.map(\.station.name) == ["alpha", "Beta", "Delta", "Gamma", "Zeta"])
    }

    @Test func pagesReportTheTotalBeforePaging() throws {
        let index = index()
        let first = try index.stations(matching: StationQuery(limit: 3))
        let last = try index.stations(matching: StationQuery(limit: 3, offset: 6))
        let beyond = try index.stations(matching: StationQuery(limit: 3, offset: 50))
        #expect(first.total == 7 && last.total == 7 && beyond.total == 7)
        #expect(ids(first) == [1, 2, 3])
        #expect(ids(last) == [7])
        #expect(beyond.matches.isEmpty)
    }

    @Test func idsKeepTheirRequestedOrderAndSkipUnknownOnes() throws {
        let page = try index().stations(matching: StationQuery(ids: [6, 999, 2, 6]))
        #expect(ids(page) == [6, 2])
        #expect(page.total == 2)
    }

    @Test func bboxFindsTheStationsInTheViewport() throws {
        let box = try BoundingBox(minLat: -34, minLng: 151.215, maxLat: -33.8, maxLng: 151.245)
        #expect(ids(try index().stations(matching: StationQuery(bbox: box))) == [2, 3, 4])
        #expect(ids(try index().stations(matching: StationQuery(brand: "shell", bbox: box))) == [3])
    }

    @Test func invalidLimitsAndRadiiAreRefused() {
        #expect(throws: QueryError.invalidLimit) { try index().stations(matching: StationQuery(limit: 0)) }
        #expect(throws: QueryError.invalidOffset) { try index().stations(matching: StationQuery(offset: -1)) }
        #expect(throws: QueryError.invalidRadius) {
            try index().stations(matching: StationQuery(near: sydney, radiusKm: -2))
        }
        #expect(throws: QueryError.radiusNeedsNear) { try index().stations(matching: StationQuery(radiusKm: 5)) }
    }

    @Test func cheapestListsTheLowestPricesFirst() throws {
        let index = index()
        #expect(ids(try index.cheapest(fuel: .U91, limit: 3)) == [7, 5, 6])
        #expect(ids(try index.cheapest(fuel: .U91, state: .NSW, limit: 2)) == [5, 2])
        #expect(ids(try index.cheapest(fuel: .U91, near: sydney, radiusKm: 3, limit: 10)) == [2, 3, 1])
    }

    @Test func changesSinceListsPricesInTheOrderTheStoreSawThem() {
        let start = Fixture.now
        let base = Fixture.merge(Fixture.update(.nsw, count: 3, asOf: start), at: start)
        // Seen two minutes later; station 1's price claims an older retailer time than station 3's but
        // arrives in a later delta, as a late-publishing provider would send it.
        let first = ProviderUpdate(
            provider: .nsw, stations: [], prices: [Fixture.price(.nsw, "3", 1_700, at: start.addingTimeInterval(120))],
            asOf: start.addingTimeInterval(120), isDelta: true)
        let second = ProviderUpdate(
            provider: .nsw, stations: [], prices: [Fixture.price(.nsw, "1", 1_800, at: start.addingTimeInterval(30))],
            asOf: start.addingTimeInterval(180), isDelta: true)
        let afterFirst = Fixture.merge(first, into: base.snapshot, registry: base.registry, at: start.addingTimeInterval(120))
        let merged = Fixture.merge(second, into: afterFirst.snapshot, registry: afterFirst.registry, at: start.addingTimeInterval(180))
        let index = FuelIndex(snapshot: merged.snapshot)
        #expect(index.changes(since: start).map(\.station) == [3, 1])
        #expect(index.changes(since: start.addingTimeInterval(120)).map(\.station) == [1])
        #expect(index.changes(since: start.addingTimeInterval(120)).first?.updatedAt == start.addingTimeInterval(30))
        #expect(index.changes(since: start.addingTimeInterval(180)).isEmpty)
        #expect(index.changes(since: .distantPast).count == 3)
    }

    @Test func anUnchangedPriceKeepsTheInstantItWasFirstSeen() {
        let start = Fixture.now
        let update = Fixture.update(.nsw, count: 2, asOf: start)
        let base = Fixture.merge(update, at: start)
        let again = Fixture.merge(update, into: base.snapshot, registry: base.registry, at: start.addingTimeInterval(600))
        #expect(FuelIndex(snapshot: again.snapshot).changes(since: start).isEmpty)
    }

    @Test func lookupByIdIsDirect() {
        let index = index()
        #expect(index[4]?.station.sourceID == "d")
        #expect(index[0] == nil)
        #expect(index[99] == nil)
        #expect(index.snapshot.slot(of: StationID(-1)) == nil)
    }
}

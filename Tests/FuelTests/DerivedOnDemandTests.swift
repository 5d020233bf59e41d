import Foundation
import Testing

@testable import Fuel

/// What a snapshot's index builds only when first asked (the search words, the route corridors, the price judge)
/// answers exactly as the same structure built eagerly, and is built once.
@Suite struct DerivedOnDemandTests {
    func index() -> FuelIndex { FuelIndex(snapshot: firstPoll().snapshot) }

    /// Stations over Sydney with names, brands and suburbs to search.
    func firstPoll() -> MergeResult {
        var generator = SeededGenerator(seed: 31)
        let brands = ["Ampol", "BP", "7-Eleven", "Shell", "Metro Fuel"]
        let suburbs = ["Bondi Junction", "Bondi", "Parramatta", "Penrith", "Ryde"]
        let ids = (1...400).map(String.init)
        let stations = ids.map { id in
            let number = Int(id)!
            var record = Fixture.station(
                .nsw, id, name: "\(brands[number % 5]) \(suburbs[number % 5 == 0 ? 1 : number % 5])", brand: brands[number % 5],
                latitude: Double.random(in: -34.1 ... -33.6, using: &generator), longitude: Double.random(in: 150.7...151.3, using: &generator))
            record.suburb = suburbs[(number / 5) % 5]
            record.postcode = number % 3 == 0 ? "2022" : "2150"
            return record
        }
        let update = ProviderUpdate(
            provider: .nsw, stations: stations, prices: ids.map { Fixture.price(.nsw, $0, 1_700 + Int($0)! % 250) }, asOf: Fixture.now)
        return Fixture.merge(update)
    }

    @Test func searchWordsWaitForTheFirstSearchAndMatchAsAnEagerIndex() {
        let index = index()
        #expect(index.builtOnDemand.search == false)
        let eager = StationSearchIndex(snapshot: index.snapshot)
        for query in [["bondi"], ["bond"], ["bondi", "junction"], ["metro", "fuel"], ["7", "eleven"], ["nowhere"], ["p"]] {
            let lazy = index.search.matches(query)
            let expected = eager.matches(query)
            #expect(lazy.slots == expected.slots, "\(query)")
            #expect(lazy.slots.indices.map(lazy.match(at:)) == expected.slots.indices.map(expected.match(at:)), "\(query)")
        }
        #expect(!index.search.matches(["bondi"]).slots.isEmpty)
        #expect(index.search.slots(inPostcode: "2022") == eager.slots(inPostcode: "2022"))
        #expect(index.builtOnDemand.search)
        #expect(index.builtOnDemand.corridors == false)
    }

    @Test func routeCorridorsWaitForTheFirstRouteAndHoldWhatAnEagerIndexHolds() throws {
        let index = index()
        #expect(index.builtOnDemand.corridors == false)
        let eager = CorridorIndex(snapshot: index.snapshot)
        var generator = SeededGenerator(seed: 8)
        for _ in 0..<100 {
            let lat = Double.random(in: -34.2 ... -33.5, using: &generator), lng = Double.random(in: 150.6...151.4, using: &generator)
            let box = try BoundingBox(minLat: lat, minLng: lng, maxLat: lat + 0.05, maxLng: lng + 0.08)
            var lazy: [Int] = [], expected: [Int] = []
            index.corridors.forEach(in: box) { slot, _, _ in lazy.append(slot) }
            eager.forEach(in: box) { slot, _, _ in expected.append(slot) }
            #expect(lazy == expected)
        }
        #expect(index.builtOnDemand.corridors)
        #expect(index.builtOnDemand.search == false)
    }

    @Test func theJudgeIsBuiltOnceAndSharedByCopiesOfTheSnapshot() {
        let snapshot = index().snapshot
        let fresh = Snapshot(version: snapshot.version, changedAt: snapshot.changedAt, entries: snapshot.entries, statuses: snapshot.statuses)
        #expect(!fresh.isJudged)
        let copy = fresh
        #expect(copy.judge == PriceJudge(snapshot: snapshot))
        #expect(fresh.isJudged)
        #expect(fresh == snapshot)
    }

    @Test func theSharedAveragesAreEachStatesOwn() {
        var generator = SeededGenerator(seed: 4)
        let nsw = (1...60).map(String.init)
        let vic = (61...90).map(String.init)
        let update = ProviderUpdate(
            provider: .nsw,
            stations: nsw.map { Fixture.station(.nsw, $0) } + vic.map { Fixture.station(.nsw, $0, state: .VIC, latitude: -37.8, longitude: 144.9) },
            prices: (nsw + vic).map { Fixture.price(.nsw, $0, Int.random(in: 1_650...2_050, using: &generator)) }, asOf: Fixture.now)
        let snapshot = Fixture.merge(update).snapshot
        let eager = Averages(snapshot: snapshot, judge: PriceJudge(snapshot: snapshot))
        #expect(snapshot.averages == eager)
        #expect(snapshot.averages.states == [.NSW, .VIC])
        // What a history records for one state is the same whether the averages were worked out for it alone.
        let alone = Averages(snapshot: snapshot, judge: PriceJudge(snapshot: snapshot), states: [.VIC])
        #expect(snapshot.averages.averages(in: .VIC) == alone.averages(in: .VIC))
        #expect(!snapshot.averages.averages(in: .VIC).isEmpty)
    }

    /// The stations of `index()` after a poll at `later`: every price 2.0 c higher, and (when `moving`) station 7
    /// a kilometre further east.
    func repoll(_ first: MergeResult, moving: Bool) -> Snapshot {
        let later = Fixture.now.addingTimeInterval(1_800)
        let stations = first.snapshot.entries.map { entry in
            var record = entry.station.record
            if moving && entry.station.sourceID == "7" { record.location.longitude += 0.01 }
            return record
        }
        let prices = first.snapshot.entries.flatMap { entry in
            entry.prices.map { Fixture.price(.nsw, entry.station.sourceID, $0.price.tenths + 20, fuel: $0.fuel, at: later) }
        }
        let update = ProviderUpdate(provider: .nsw, stations: stations, prices: prices, asOf: later)
        return Fixture.merge(update, into: first.snapshot, registry: first.registry, at: later).snapshot
    }

    @Test func aPricesOnlyPollKeepsTheStationLayoutAndAnswersAsAFreshIndex() throws {
        let first = firstPoll()
        let previous = FuelIndex(snapshot: first.snapshot)
        for moving in [false, true] {
            let next = repoll(first, moving: moving)
            #expect(next.entries.map(\.prices) != first.snapshot.entries.map(\.prices))
            let reused = FuelIndex(snapshot: next, previous: previous)
            let fresh = FuelIndex(snapshot: next)
            #expect(reused.sharesStationLayout(with: previous) == !moving)
            #expect(reused.slotsByState == fresh.slotsByState)
            #expect(reused.nameRank == fresh.nameRank)
            #expect(reused.brandNumbers == fresh.brandNumbers)
            #expect(reused.stateOrdinals == fresh.stateOrdinals)
            #expect(reused.priceTable == fresh.priceTable)
            #expect(reused.standingTable == fresh.standingTable)
            let moved = try #require(next.entries.first { $0.station.sourceID == "7" }).station.location
            for point in [moved, Coordinate(latitude: -33.87, longitude: 151.0)] {
                #expect(reused.spatial.near(point, radiusKm: 3) == fresh.spatial.near(point, radiusKm: 3))
            }
            #expect(!reused.spatial.near(moved, radiusKm: 0.01).isEmpty)
            #expect(reused.search.matches(["bondi"]).slots == fresh.search.matches(["bondi"]).slots)
        }
    }
}

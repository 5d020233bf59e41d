import Foundation
import Testing

@testable import Fuel

@Suite struct AlongRouteTests {
    let kmPerDegree = Coordinate.earthRadiusKm * Double.pi / 180

    /// Stations at random over a patch around Sydney: 2,000 of them, each selling U91 at a price from its id.
    func index(count: Int = 2_000) -> FuelIndex { Fixture.sydneyPatch(count: count, seed: 7) }

    /// Every station, every leg: what the grid must agree with.
    func bruteForce(_ index: FuelIndex, _ route: RoutePath, detourKm: Double) -> [AlongHit] {
        Fixture.bruteForceAlong(route, detourKm: detourKm, in: index)
    }

    func randomRoute(_ generator: inout SeededGenerator) throws -> RoutePath {
        var point = Coordinate(latitude: Double.random(in: -34.2 ... -33.5, using: &generator), longitude: Double.random(in: 150.7...151.3, using: &generator))
        var heading = Double.random(in: 0..<(2 * Double.pi), using: &generator)
        var points = [point]
        for _ in 0..<Int.random(in: 1...60, using: &generator) {
            heading += Double.random(in: -0.6...0.6, using: &generator)
            let km = Double.random(in: 0.05...8, using: &generator)
            point = point.stepped(km: km, heading: heading)
            points.append(point)
        }
        return try RoutePath(points: points)
    }

    /// The grid's answer is the scan's to the last bit (the same stations, nearest leg, earliest on a tie), so
    /// responses cannot depend on which cells a route crosses: seeded random routes, and one that comes back along
    /// itself.
    @Test func theCorridorIsExactlyTheBruteForceScan() throws {
        let index = index()
        var generator = SeededGenerator(seed: 31)
        var found = 0
        for _ in 0..<40 {
            let route = try randomRoute(&generator)
            let detour = Double.random(in: 0.1...5, using: &generator)
            let fast = index.corridor(route, detourKm: detour)
            #expect(fast == bruteForce(index, route, detourKm: detour), "route of \(route.points.count) points, detour \(detour)")
            found += fast.count
        }
        #expect(found > 200, "the random routes should pass many stations")
        // A route that comes back along itself: ties between the way out and back go to the earlier leg.
        let out = try randomRoute(&generator)
        let there = try RoutePath(points: out.points + out.points.reversed().dropFirst())
        let hits = index.corridor(there, detourKm: 2)
        #expect(hits == bruteForce(index, there, detourKm: 2))
        #expect(!hits.isEmpty)
    }

    /// `along` with a fuel scans a per-fuel subset of the corridor index (`CorridorIndex.subset`): its pages are
    /// the brute-force scan's hits filtered as the query asks, ordered and cut, for fuels some stations lack and
    /// whose prices do not all count (stale, implausible), asked in turn so each subset is made and then reused.
    @Test func alongWithAFuelIsTheBruteForceScanFiltered() throws {
        var generator = SeededGenerator(seed: 43)
        let ids = (1...2_000).map(String.init)
        let old = Fixture.now.addingTimeInterval(-40 * 86_400)
        let update = ProviderUpdate(
            provider: .nsw,
            stations: ids.map { id in
                Fixture.station(
                    .nsw, id, latitude: Double.random(in: -34.3 ... -33.4, using: &generator),
                    longitude: Double.random(in: 150.6...151.4, using: &generator))
            },
            prices: ids.flatMap { id -> [PriceRecord] in
                let number = Int(id)!
                var prices: [PriceRecord] = []
                if number % 3 != 0 {
                    let tenths = number % 7 == 0 ? 3_500 : 1_700 + number % 300
                    prices.append(Fixture.price(.nsw, id, tenths, fuel: .U91, at: number % 11 == 0 ? old : Fixture.now))
                }
                if number % 2 == 0 { prices.append(Fixture.price(.nsw, id, 1_650 + number % 250, fuel: .E10)) }
                return prices
            },
            asOf: Fixture.now)
        let index = FuelIndex(snapshot: Fixture.merge(update).snapshot)
        let entries = index.snapshot.entries.count
        let u91 = FuelType.U91.ordinal * entries
        #expect((0..<entries).contains { index.priceTable[u91 + $0] >= 0 && index.standingTable[u91 + $0] != 0 }, "some U91 prices do not count")
        #expect((0..<entries).contains { index.priceTable[u91 + $0] < 0 }, "some stations sell no U91")
        var compared = 0
        for round in 0..<24 {
            let route = try randomRoute(&generator)
            let detour = Double.random(in: 0.1...5, using: &generator)
            let all = bruteForce(index, route, detourKm: detour)
            for (fuel, sort) in [(FuelType?.none, AlongQuery.Sort.alongKm), (.U91, .price), (.E10, .alongKm), (.U91, .alongKm), (.E10, .price)] {
                let base = fuel.map { $0.ordinal * entries }
                let kept = all.filter { hit in
                    guard let base else { return true }
                    return index.priceTable[base + hit.slot] >= 0 && (sort != .price || index.standingTable[base + hit.slot] == 0)
                }
                let price = { (hit: AlongHit) in base.map { Int(index.priceTable[$0 + hit.slot]) } ?? 0 }
                let expected = kept.sorted { a, b in
                    sort == .price
                        ? (price(a), a.alongKm, a.slot) < (price(b), b.alongKm, b.slot)
                        : (a.alongKm, a.detourKm, a.slot) < (b.alongKm, b.detourKm, b.slot)
                }
                let offset = round % 3 == 0 ? 0 : min(expected.count, round)
                let query = AlongQuery(route: route, detourKm: detour, fuel: fuel, sort: sort, limit: 20, offset: offset)
                let page = try index.along(query)
                #expect(page.total == expected.count, "\(fuel.map(\.rawValue) ?? "any") \(sort)")
                #expect(page.hits == Array(expected.dropFirst(offset).prefix(20)), "\(fuel.map(\.rawValue) ?? "any") \(sort)")
                compared += page.hits.count
            }
        }
        #expect(compared > 500)
    }

    /// A straight 10 km route north; stations 1 km east at 3 km, 1.9 km west at 7 km, one 2.01 km off, one 1.5 km past the end.
    @Test func alongAndDetourAreMeasuredFromTheNearestPointOfTheRoute() throws {
        let start = Coordinate(latitude: -34, longitude: 151)
        func at(northKm: Double, eastKm: Double) -> Coordinate {
            Coordinate(latitude: start.latitude + northKm / kmPerDegree, longitude: start.longitude + eastKm / (kmPerDegree * start.cosLatitude))
        }
        let places = [("east", at(northKm: 3, eastKm: 1)), ("west", at(northKm: 7, eastKm: -1.9)), ("outside", at(northKm: 5, eastKm: 2.01)),
                      ("beyond the end", at(northKm: 11.5, eastKm: 0))]
        let update = ProviderUpdate(
            provider: .nsw,
            stations: places.map { Fixture.station(.nsw, $0.0, name: $0.0, latitude: $0.1.latitude, longitude: $0.1.longitude) },
            prices: [Fixture.price(.nsw, "east", 2_000), Fixture.price(.nsw, "west", 1_800), Fixture.price(.nsw, "outside", 1_500)],
            asOf: Fixture.now)
        let index = FuelIndex(snapshot: Fixture.merge(update).snapshot)
        let route = try RoutePath(points: [start, at(northKm: 5, eastKm: 0), at(northKm: 10, eastKm: 0)])
        #expect(abs(route.lengthKm - 10) < 0.01)
        let page = try index.along(AlongQuery(route: route, detourKm: 2))
        let names = page.hits.map { index.snapshot.entries[$0.slot].station.name }
        #expect(names == ["east", "west", "beyond the end"])
        #expect(page.hits.map { ($0.alongKm * 100).rounded() / 100 } == [3, 7, 10])
        #expect(page.hits.map { ($0.detourKm * 100).rounded() / 100 } == [1, 1.9, 1.5])
        #expect(page.total == 3)
        // Past the end: 1.5 km from the last point, so inside a 1.5 km corridor, not a 1.49 km one.
        let wide = try index.along(AlongQuery(route: route, detourKm: 1.51)).hits.map { index.snapshot.entries[$0.slot].station.name }
        #expect(wide == ["east", "beyond the end"])
        #expect(try index.along(AlongQuery(route: route, detourKm: 1.49)).hits.count == 1)
        let byPrice = try index.along(AlongQuery(route: route, detourKm: 2.02, fuel: .U91, sort: .price))
        #expect(byPrice.hits.map { index.snapshot.entries[$0.slot].station.name } == ["outside", "west", "east"])
    }

    @Test func theRouteLimitsAreInclusive() throws {
        let start = Coordinate(latitude: -34, longitude: 151)
        let end = Coordinate(latitude: -34 + 100 / kmPerDegree, longitude: 151)
        #expect(try RoutePath(points: [start, end], maximumLengthKm: 100.001).lengthKm > 99.99)
        #expect(throws: RoutePath.ValidationError.self) { try RoutePath(points: [start, end], maximumLengthKm: 99.99) }
        #expect(throws: RoutePath.ValidationError.tooFewPoints) { try RoutePath(points: [start]) }
        let route = try RoutePath(points: [start, end])
        #expect(throws: AlongQueryError.invalidDetour) { try AlongQuery(route: route, detourKm: 0.09).validate() }
        #expect(throws: AlongQueryError.invalidDetour) { try AlongQuery(route: route, detourKm: 20.01).validate() }
        #expect(throws: AlongQueryError.priceSortNeedsFuel) { try AlongQuery(route: route, sort: .price).validate() }
        try AlongQuery(route: route, detourKm: 0.1).validate()
        try AlongQuery(route: route, detourKm: 20).validate()
    }
}

import Foundation
import Testing

@testable import Fuel

/// `cheapestNear` prunes by price before it measures and judges opening only for stations that would make the page:
/// checked against every station's distance computed the plain way, and against the general query it replaces.
@Suite struct CheapestNearTests {
    static let sydney = Coordinate(latitude: -33.87, longitude: 151.0)
    static let observed = Fixture.date("2026-01-15T01:50:00Z")

    /// 1,500 NSW stations over metro Sydney. Prices fall on few values (ties are the usual case) and some stations
    /// share a spot (equal distances too); some sell no U91, some U91 prices are too old to count, and some stations
    /// are members-only, closed now, open all day, or publish nothing.
    static let index: FuelIndex = {
        var generator = SeededGenerator(seed: 7)
        var stations: [StationRecord] = []
        var prices: [PriceRecord] = []
        var previous = sydney
        for number in 1...1_500 {
            let id = String(number)
            let spot = Int.random(in: 0..<10, using: &generator) == 0 ? previous : Coordinate(
                latitude: Double.random(in: -34.2 ... -33.5, using: &generator),
                longitude: Double.random(in: 150.6...151.4, using: &generator))
            previous = spot
            var station = Fixture.station(.nsw, id, latitude: spot.latitude, longitude: spot.longitude)
            switch Int.random(in: 0..<8, using: &generator) {
            case 0: station.access = StationAccess(membershipRequired: true)
            case 1: station.access = StationAccess(open24h: false, closedNow: true, observedAt: observed)
            case 2: station.access = StationAccess(open24h: true)
            default: break
            }
            stations.append(station)
            switch Int.random(in: 0..<10, using: &generator) {
            case 0: prices.append(Fixture.price(.nsw, id, 1_900, fuel: .DL))
            case 1: prices.append(Fixture.price(.nsw, id, 1_850, at: Fixture.date("2025-10-01T00:00:00Z")))
            default: prices.append(Fixture.price(.nsw, id, 1_800 + 5 * Int.random(in: 0..<12, using: &generator)))
            }
        }
        let update = ProviderUpdate(provider: .nsw, stations: stations, prices: prices, asOf: Fixture.now)
        return FuelIndex(snapshot: Fixture.merge(update).snapshot)
    }()

    static let access = AccessFilter(opening: .notClosed, excludesMembersOnly: true, clocks: .wall, wall: Fixture.now)

    /// Every station measured, filtered and sorted: no index, no pruning.
    func bruteForce(_ point: Coordinate, radiusKm: Double, limit: Int, access: AccessFilter?) -> [StationMatch] {
        let index = Self.index
        let matches = index.snapshot.entries.enumerated().compactMap { slot, entry -> (slot: Int, match: StationMatch)? in
            guard let price = entry.price(of: .U91), index.standing(.U91, slot: slot) == .counts else { return nil }
            let distance = point.distanceKm(to: entry.station.location)
            guard distance <= radiusKm, access?.admits(entry.station) ?? true else { return nil }
            return (slot, StationMatch(entry: entry, distanceKm: distance, price: price))
        }
        return matches.sorted { a, b in
            (a.match.price!.price.tenths, a.match.distanceKm!, a.slot) < (b.match.price!.price.tenths, b.match.distanceKm!, b.slot)
        }.prefix(limit).map(\.match)
    }

    @Test func theCheapestNearAPointAreTheOnesEveryStationMeasuredPlainlyGives() throws {
        var generator = SeededGenerator(seed: 11)
        var nonEmpty = 0
        for round in 0..<300 {
            let point = Coordinate(
                latitude: Double.random(in: -34.3 ... -33.4, using: &generator),
                longitude: Double.random(in: 150.5...151.5, using: &generator))
            let radius = Double.random(in: 0.5...20, using: &generator)
            let limit = Int.random(in: 1...12, using: &generator)
            let access = round % 2 == 0 ? Self.access : nil
            let found = Self.index.cheapestNear(fuel: .U91, point: point, radiusKm: radius, limit: limit, access: access)
            #expect(found == bruteForce(point, radiusKm: radius, limit: limit, access: access), "\(point) \(radius) km, \(limit)")
            let general = try Self.index.cheapest(fuel: .U91, near: point, radiusKm: radius, limit: limit, access: access)
            #expect(found == general.matches, "\(point) \(radius) km, \(limit)")
            if !found.isEmpty { nonEmpty += 1 }
        }
        // Most points land among the stations: the comparison is not between two empty lists.
        #expect(nonEmpty > 200)
    }

    @Test func aNearListFindsEveryStationThePlainScanFinds() throws {
        var generator = SeededGenerator(seed: 13)
        for _ in 0..<100 {
            let point = Coordinate(
                latitude: Double.random(in: -34.3 ... -33.4, using: &generator),
                longitude: Double.random(in: 150.5...151.5, using: &generator))
            let radius = Double.random(in: 0.5...StationQuery.maximumRadiusKm, using: &generator)
            let expected = bruteForce(point, radiusKm: radius, limit: .max, access: nil)
            let byPrice = try Self.index.stations(matching: StationQuery(fuel: .U91, near: point, radiusKm: radius, sort: .price, limit: 500))
            #expect(byPrice.total == expected.count)
            #expect(byPrice.matches == Array(expected.prefix(500)))

            // Without a fuel every station in the circle counts, nearest first.
            let entries = Self.index.snapshot.entries
            let everyDistance = entries.indices.compactMap { slot -> (Double, Int)? in
                let distance = point.distanceKm(to: entries[slot].station.location)
                return distance <= radius ? (distance, slot) : nil
            }.sorted { $0 < $1 }
            let byDistance = try Self.index.slots(matching: StationQuery(near: point, radiusKm: radius, limit: 500))
            #expect(byDistance.total == everyDistance.count)
            #expect(byDistance.hits.map { [$0.distanceKm!, Double($0.slot)] } == everyDistance.prefix(500).map { [$0.0, Double($0.1)] })
        }
    }

    /// The walk from the cheapest and the spatial scan it falls back to each give the plain answer on their own:
    /// a budget of 0 always scans, an unbounded one always walks (to the end of the fuel's stations for a point
    /// no station reaches), and small ones give up part way.
    @Test func theWalkByPriceAndTheSpatialScanEachGiveThePlainAnswer() {
        var generator = SeededGenerator(seed: 17)
        var points: [Coordinate] = [Self.sydney, Coordinate(latitude: -20, longitude: 135), Coordinate(latitude: -33.9, longitude: 152.5)]
        for _ in 0..<150 {
            points.append(Coordinate(
                latitude: Double.random(in: -34.4 ... -33.3, using: &generator), longitude: Double.random(in: 150.4...151.6, using: &generator)))
        }
        var walked = 0
        for (round, point) in points.enumerated() {
            let radius = [0.3, 1, 5, 10, 25][round % 5]
            let limit = [1, 3, 7][round % 3]
            let access = round % 2 == 0 ? Self.access : nil
            let expected = bruteForce(point, radiusKm: radius, limit: limit, access: access)
            for budget in [0, 1, 16, Int.max] {
                let found = Self.index.cheapestNear(fuel: .U91, point: point, radiusKm: radius, limit: limit, access: access, walkBudget: budget)
                #expect(found == expected, "\(point) \(radius) km, \(limit), budget \(budget)")
            }
            if !expected.isEmpty { walked += 1 }
        }
        // Many points are far enough from every station for small radii: still, most are not.
        #expect(walked > 50)
    }

    /// A station exactly on the circle (its haversine distance is the radius, to the bit) is found by the walk too.
    @Test func theWalkFindsAStationExactlyOnTheCircle() {
        let entries = Self.index.snapshot.entries
        var checked = 0
        for slot in stride(from: 0, to: entries.count, by: 37) {
            guard let price = entries[slot].price(of: .U91), Self.index.standing(.U91, slot: slot) == .counts else { continue }
            let radius = Self.sydney.distanceKm(to: entries[slot].station.location)
            let found = Self.index.cheapestNear(fuel: .U91, point: Self.sydney, radiusKm: radius, limit: 500, access: nil, walkBudget: .max)
            let everyone = bruteForce(Self.sydney, radiusKm: radius, limit: .max, access: nil)
            #expect(found == Array(everyone.prefix(500)))
            // A page holds it unless more than a page is within reach.
            guard everyone.count <= 500 else { continue }
            #expect(found.contains { $0.entry.id == entries[slot].id && $0.price == price })
            checked += 1
        }
        #expect(checked > 5)
    }

    /// A nearby list, every station measured, filtered, sorted and paged plainly: no index, no skipped tests.
    func bruteForcePage(_ query: StationQuery) -> SlotPage {
        let index = Self.index
        let sort = query.sort ?? .distance
        let ranksByPrice = sort == .price || sort == .fillCost
        var rows: [(slot: Int, distance: Double, price: Int, cost: Int)] = []
        var reference: FillReference?
        var referenceDistance = Double.infinity
        for (slot, entry) in index.snapshot.entries.enumerated() {
            if let state = query.state, entry.station.state != state { continue }
            var price = 0
            if let fuel = query.fuel {
                guard let tenths = index.priceTenths(fuel, slot: slot) else { continue }
                if ranksByPrice, !index.standing(fuel, slot: slot).isEmpty { continue }
                price = tenths
            }
            guard entry.station.location.isValid else { continue }
            let distance = query.near!.distanceKm(to: entry.station.location)
            guard distance <= query.radiusKm!, query.access?.admits(entry.station) ?? true else { continue }
            var cost = Int.max
            if let fill = query.fill, let fuel = query.fuel, index.standing(fuel, slot: slot).isEmpty {
                cost = fill.costCents(priceTenths: price, distanceKm: distance)
                if (distance, slot) < (referenceDistance, reference?.slot ?? .max) {
                    referenceDistance = distance
                    reference = FillReference(slot: slot, costCents: cost)
                }
            }
            rows.append((slot, distance, price, cost))
        }
        switch sort {
        case .price: rows.sort { ($0.price, $0.distance, $0.slot) < ($1.price, $1.distance, $1.slot) }
        case .fillCost: rows.sort { ($0.cost, $0.distance, $0.slot) < ($1.cost, $1.distance, $1.slot) }
        default: rows.sort { ($0.distance, $0.slot) < ($1.distance, $1.slot) }
        }
        let page = rows.dropFirst(query.offset).prefix(query.limit)
        return SlotPage(
            total: rows.count, limit: query.limit, offset: query.offset,
            hits: page.map { SlotPage.Hit(slot: $0.slot, distanceKm: $0.distance, fillCostCents: $0.cost == .max ? nil : $0.cost) },
            hasMore: query.offset + page.count < rows.count, fillReference: reference)
    }

    /// Nearby lists (the general path skipping the filters they cannot have) against every station measured plainly,
    /// and against the same path made to run every filter (an exclusion of a brand nobody has): every sort, fill
    /// costs and their reference, a state, `open_now`, offsets and limits.
    @Test func nearbyListsAreWhatEveryStationMeasuredPlainlyGives() throws {
        var generator = SeededGenerator(seed: 19)
        let openNow = AccessFilter(opening: .openNow, excludesMembersOnly: false, clocks: .wall, wall: Fixture.now, keepsUnknownIn: [])
        var nonEmpty = 0
        for round in 0..<240 {
            let point = Coordinate(
                latitude: Double.random(in: -34.3 ... -33.4, using: &generator), longitude: Double.random(in: 150.5...151.5, using: &generator))
            let sort: StationQuery.Sort? = [nil, .distance, .price, .fillCost][round % 4]
            let fuel: FuelType? = sort == .price || sort == .fillCost || round % 3 != 0 ? [.U91, .DL][round % 2] : nil
            var query = StationQuery(
                state: round % 5 == 0 ? .NSW : (round % 7 == 0 ? .VIC : nil), fuel: fuel, near: point,
                radiusKm: [1, 5, 25, 50][round % 4], sort: sort, limit: [1, 5, 50, 500][(round / 4) % 4], offset: [0, 0, 3, 40][(round / 3) % 4])
            if fuel != nil, round % 2 == 0 || sort == .fillCost { query.fill = FillPlan() }
            query.access = [nil, Self.access, openNow][round % 3]
            var general = query
            general.excludedBrands = ["no such brand"]
            let nearby = try Self.index.slots(matching: query)
            #expect(nearby == bruteForcePage(query), "round \(round)")
            #expect(nearby == (try Self.index.slots(matching: general)), "round \(round)")
            if !nearby.hits.isEmpty { nonEmpty += 1 }
        }
        #expect(nonEmpty > 100)
    }

    /// Each fuel's price order is made on its first search and kept: later searches walk the very same rows, and of
    /// two first searches that both built it, the one stored first is what both walk.
    @Test func thePriceOrderIsMadeOncePerFuelAndIsEveryCountingStationCheapestFirst() {
        let index = FuelIndex(snapshot: Self.index.snapshot)
        let rows = index.pricedRows(.U91)
        var rebuilt = false
        let again = index.pricedPoints.rows(.U91) {
            rebuilt = true
            return []
        }
        #expect(!rebuilt)
        #expect(again.map(\.slot) == rows.map(\.slot))
        let expected = index.snapshot.entries.indices.filter { slot in
            index.priceTenths(.U91, slot: slot) != nil && index.standing(.U91, slot: slot).isEmpty
                && index.snapshot.entries[slot].station.location.isValid
        }.sorted { (index.priceTenths(.U91, slot: $0)!, $0) < (index.priceTenths(.U91, slot: $1)!, $1) }
        #expect(rows.map { Int($0.slot) } == expected)
        #expect(rows.map { Int($0.price) } == expected.map { index.priceTenths(.U91, slot: $0)! })

        // A race: while one search builds DL's order, another stores it first.
        let first = index.pricedPoints.rows(.DL) {
            let other = index.pricedRows(.DL)
            #expect(!other.isEmpty)
            return Array(other.reversed())
        }
        #expect(first.map(\.slot) == index.pricedRows(.DL).map(\.slot))
        #expect(first.first?.price ?? 0 <= first.last?.price ?? 0)
    }

    @Test func priceTiesAreBrokenByDistanceThenSlot() {
        let found = Self.index.cheapestNear(fuel: .U91, point: Self.sydney, radiusKm: 20, limit: 40)
        #expect(found.count == 40)
        #expect(Set(found.map { $0.price!.price.tenths }).count < 40)
        #expect(found == bruteForce(Self.sydney, radiusKm: 20, limit: 40, access: nil))
    }

    @Test func anInvalidPointRadiusOrLimitFindsNothing() {
        #expect(Self.index.cheapestNear(fuel: .U91, point: Coordinate(latitude: .nan, longitude: 151), radiusKm: 5, limit: 3).isEmpty)
        #expect(Self.index.cheapestNear(fuel: .U91, point: Self.sydney, radiusKm: 0, limit: 3).isEmpty)
        #expect(Self.index.cheapestNear(fuel: .U91, point: Self.sydney, radiusKm: .infinity, limit: 3).isEmpty)
        #expect(Self.index.cheapestNear(fuel: .U91, point: Self.sydney, radiusKm: 5, limit: 0).isEmpty)
    }
}

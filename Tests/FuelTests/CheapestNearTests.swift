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

import Foundation
import Testing

@testable import Fuel

/// Routes built to cost the most within the point and length limits, and routes across the antimeridian: each
/// answers what it means (the short way round) and none costs more than `CorridorWork.perRequest`.
@Suite struct RouteAbuseTests {
    /// 3,000 stations over a patch around Sydney (-34.2...-33.5, 150.7...151.3).
    static let sydney = Fixture.sydneyPatch(count: 3_000, seed: 43)

    /// Stations either side of the antimeridian, 0.01° apart along -33.87.
    static let dateLine: FuelIndex = {
        var stations: [StationRecord] = [], prices: [PriceRecord] = []
        for step in 1...20 {
            for (side, longitude) in [("e", 180 - Double(step) * 0.01), ("w", -180 + Double(step) * 0.01)] {
                let id = "\(side)\(step)"
                stations.append(Fixture.station(.nsw, id, latitude: -33.87, longitude: longitude))
                prices.append(Fixture.price(.nsw, id, 1_800))
            }
        }
        return FuelIndex(snapshot: Fixture.merge(ProviderUpdate(provider: .nsw, stations: stations, prices: prices, asOf: Fixture.now)).snapshot)
    }()

    static let sydneyCentre = Coordinate(latitude: -33.87, longitude: 151.0)

    @Test func aZeroLengthRouteOnTheAntimeridianFindsNoSydneyStation() throws {
        let route = try RoutePath(points: [
            Coordinate(latitude: -33.87, longitude: 179.99999), Coordinate(latitude: -33.87, longitude: -179.99999),
        ], maximumLengthKm: AlongQuery.maximumLengthKm)
        #expect(route.lengthKm < 0.01)
        #expect(Self.sydney.corridor(route, detourKm: 20).isEmpty)
        #expect(try Self.sydney.along(AlongQuery(route: route, detourKm: 20, limit: 500)).total == 0)
    }

    @Test func aLegAcrossTheAntimeridianTakesTheShortWayAndFindsStationsOnBothSides() throws {
        let route = try RoutePath(points: [
            Coordinate(latitude: -33.87, longitude: 179.95), Coordinate(latitude: -33.87, longitude: -179.95),
        ])
        #expect(route.lengthKm < 10)
        let hits = Self.dateLine.corridor(route, detourKm: 0.5)
        // 0.05° either side of the line: 4 steps east, 4 west (the fifth is at the route's ends, in too).
        let ids = Set(hits.map { Self.dateLine.snapshot.entries[$0.slot].station.key.sourceID })
        #expect(ids == Set((1...5).flatMap { ["e\($0)", "w\($0)"] }), "\(ids.sorted())")
        #expect(hits == Fixture.bruteForceAlong(route, detourKm: 0.5, in: Self.dateLine))
        // along_km runs the short way: the station just west of the line is further along than the one east.
        let alongOf = Dictionary(uniqueKeysWithValues: hits.map { (Self.dateLine.snapshot.entries[$0.slot].station.key.sourceID, $0.alongKm) })
        #expect(try #require(alongOf["e1"]) < #require(alongOf["w1"]))
        #expect(hits.allSatisfy { $0.alongKm <= route.lengthKm + 0.01 })
    }

    @Test func aZigZagOverTheAntimeridianCostsNothingAndFindsNothing() throws {
        let points = (0..<1_161).map { Coordinate(latitude: -33.87, longitude: $0 % 2 == 0 ? 180 : -180) }
        let route = try RoutePath(points: points, maximumLengthKm: AlongQuery.maximumLengthKm)
        let runs = CorridorRuns(route: route, detourKm: 20)
        #expect(runs.runs.allSatisfy { $0.box.maxLng - $0.box.minLng < 1 })
        #expect(try Self.sydney.along(AlongQuery(route: route, detourKm: 20, limit: 500)).total == 0)
    }

    /// Every box is at most a span plus two detours on a side, even around one 1,000 km leg.
    @Test func eachRunsBoxIsBounded() throws {
        let route = try RoutePath(points: [
            Coordinate(latitude: -33.87, longitude: 151.2), Coordinate(latitude: -37.81, longitude: 144.96),
            Coordinate(latitude: -37.82, longitude: 144.97),
        ])
        for detour in [0.1, 2, 20] {
            let runs = CorridorRuns(route: route, detourKm: detour)
            let side = (CorridorRuns.runSpanKm(detourKm: detour) + 2 * detour) / RoutePath.kmPerDegree
            for run in runs.runs {
                #expect(run.box.maxLat - run.box.minLat <= side * 1.0001)
                #expect((run.box.maxLng - run.box.minLng) * cos(run.box.maxLat.magnitude * .pi / 180) <= side * 1.3)
            }
            #expect(Set(runs.runs.map(\.legs)) == [0..<1, 1..<2])
            #expect(runs.runs.count > 10, "the 680 km leg is cut into pieces")
            #expect(Self.sydney.corridor(route, detourKm: detour) == Fixture.bruteForceAlong(route, detourKm: detour, in: Self.sydney))
        }
    }

    /// 2,000 points on one spot over Sydney at the widest detour: every station of a 40 km box measured against
    /// every leg, had the budget not stopped it.
    @Test func aRouteFoldedOnItselfPastTheWorkBudgetIsRefused() throws {
        let still = try RoutePath(points: Array(repeating: Self.sydneyCentre, count: AlongQuery.maximumPoints))
        #expect(throws: AlongQueryError.routeTooComplex) {
            try Self.sydney.along(AlongQuery(route: still, detourKm: 20, limit: 500))
        }
        let zigZag = try RoutePath(points: (0..<AlongQuery.maximumPoints).map {
            Coordinate(latitude: -33.87 + Double($0 % 2) * 0.00002, longitude: 151.0)
        })
        #expect(throws: AlongQueryError.routeTooComplex) {
            try Self.sydney.along(AlongQuery(route: zigZag, detourKm: 10, limit: 20))
        }
        #expect("\(AlongQueryError.routeTooComplex)".contains("Douglas-Peucker"))
    }

    /// What a driven route looks like stays inside the budget: 360 km of 0.2-1 km legs to and fro through the patch
    /// (three times as dense as Sydney) at 2 km, and the same route's first 2,000 points 20 m apart.
    @Test func drivenRoutesStayWithinTheBudget() throws {
        var generator = SeededGenerator(seed: 5)
        var point = Self.sydneyCentre, heading = 0.3
        var points = [point]
        while points.count < 600 {
            heading += Double.random(in: -0.4...0.4, using: &generator)
            point = point.stepped(km: Double.random(in: 0.2...1, using: &generator), heading: heading)
            if point.latitude < -34.2 || point.latitude > -33.5 || point.longitude < 150.7 || point.longitude > 151.3 { heading += .pi }
            points.append(point)
        }
        let route = try RoutePath(points: points, maximumLengthKm: AlongQuery.maximumLengthKm)
        let found = try Self.sydney.along(AlongQuery(route: route, detourKm: 2, limit: 500)).total
        #expect(found > 300, "\(found), \(route.lengthKm) km")
        let dense = try RoutePath(points: (0..<AlongQuery.maximumPoints).map { Self.sydneyCentre.stepped(km: Double($0) * 0.02, heading: 1) })
        let near = try Self.sydney.along(AlongQuery(route: dense, detourKm: 1, limit: 500)).total
        #expect(near > 20, "\(near)")
    }
}

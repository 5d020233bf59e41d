import Foundation
import Testing

@testable import Fuel

/// The corridor search scans one box per run of legs; these check that grouping changes nothing a client sees.
@Suite struct CorridorRunsTests {

    /// 3,000 stations at random over a patch around Sydney.
    static let index = Fixture.sydneyPatch(count: 3_000, seed: 41)

    /// A drive as the benchmark draws them: 0.3-2 km legs whose heading wanders, `lengthKm` long.
    func drive(_ generator: inout SeededGenerator, lengthKm: Double) throws -> RoutePath {
        var point = Coordinate(latitude: Double.random(in: -34.1 ... -33.6, using: &generator), longitude: Double.random(in: 150.8...151.2, using: &generator))
        var heading = Double.random(in: 0..<(2 * Double.pi), using: &generator)
        var points = [point], length = 0.0
        while length < lengthKm {
            heading += Double.random(in: -0.5...0.5, using: &generator)
            let km = Double.random(in: 0.3...2, using: &generator)
            point = point.stepped(km: km, heading: heading)
            points.append(point)
            length += km
        }
        return try RoutePath(points: points)
    }

    func bruteForce(_ route: RoutePath, detourKm: Double) -> [AlongHit] {
        Fixture.bruteForceAlong(route, detourKm: detourKm, in: Self.index)
    }

    /// Stations on a lattice whose longitudes are exactly the corridor index's strip edges (the westernmost station
    /// sets the strips' origin), 0.01° apart north-south.
    static let lattice: FuelIndex = {
        let origin = 150.6, width = CorridorIndex.stripDegrees
        var stations: [StationRecord] = [], prices: [PriceRecord] = []
        for column in 0..<30 {
            for row in 0..<60 {
                let id = String(column * 100 + row + 1)
                stations.append(Fixture.station(.nsw, id, latitude: -34.2 + Double(row) * 0.01, longitude: origin + Double(column) * width))
                prices.append(Fixture.price(.nsw, id, 1_800))
            }
        }
        return FuelIndex(snapshot: Fixture.merge(ProviderUpdate(provider: .nsw, stations: stations, prices: prices, asOf: Fixture.now)).snapshot)
    }()

    func bruteForce(_ route: RoutePath, detourKm: Double, in index: FuelIndex) -> [AlongHit] {
        Fixture.bruteForceAlong(route, detourKm: detourKm, in: index)
    }

    /// Legs along strip edges, through the points where a strip edge meets a row of stations, diagonal across
    /// many strips and runs, a few metres long and 100 km long; detours from none to wider than a strip.
    @Test func legsAlongAndAcrossStripEdgesFindWhatABruteForceScanFinds() throws {
        // The strips' western edges, computed as the lattice's longitudes are.
        func west(of strip: Int) -> Double { 150.6 + Double(strip) * CorridorIndex.stripDegrees }
        let edge = west(of: 7), nextEdge = west(of: 8)
        let routes: [(String, [Coordinate])] = [
            ("along a strip edge", [.init(latitude: -34.15, longitude: edge), .init(latitude: -33.7, longitude: edge)]),
            ("along an edge, south", [.init(latitude: -33.7, longitude: nextEdge), .init(latitude: -34.15, longitude: nextEdge)]),
            ("edge to edge through lattice points", [.init(latitude: -34.2, longitude: edge), .init(latitude: -34.1, longitude: west(of: 17))]),
            ("corner to corner, diagonal", [.init(latitude: -34.2, longitude: west(of: 2)), .init(latitude: -33.62, longitude: west(of: 27))]),
            ("east-west on a row", [.init(latitude: -34.0, longitude: 150.55), .init(latitude: -34.0, longitude: 151.3)]),
            ("metres-long legs on an edge", (0..<40).map { .init(latitude: -34.0 + Double($0) * 0.00003, longitude: edge + Double($0 % 2) * 1e-12) }),
            ("metres-long legs across an edge", (0..<40).map { .init(latitude: -33.9 + Double($0) * 0.00002, longitude: edge - 0.00004 + Double($0) * 0.000002) }),
            ("one 100 km leg and a short one", [.init(latitude: -34.25, longitude: 150.55), .init(latitude: -33.55, longitude: 151.25), .init(latitude: -33.551, longitude: 151.25)]),
            ("outside the strips", [.init(latitude: -34.0, longitude: 150.3), .init(latitude: -33.8, longitude: 150.35)]),
            ("zigzag over one edge", (0..<30).map { .init(latitude: -34.1 + Double($0) * 0.01, longitude: $0 % 2 == 0 ? edge - 0.01 : edge + 0.01) }),
        ]
        var found = 0
        for (name, points) in routes {
            let route = try RoutePath(points: points)
            for detour in [0, 0.1, 1.1, 2, 5] {
                let hits = Self.lattice.corridor(route, detourKm: detour)
                #expect(hits == bruteForce(route, detourKm: detour, in: Self.lattice), "\(name), detour \(detour)")
                found += hits.count
            }
        }
        #expect(found > 3_000)
    }

    @Test func runsCoverEveryLegOnceAndTheirBoxesHoldEachLegsCorridorBox() throws {
        var generator = SeededGenerator(seed: 3)
        for detour in [0.1, 2, 20] {
            let route = try drive(&generator, lengthKm: 120)
            let runs = CorridorRuns(route: route, detourKm: detour)
            #expect(runs.runs.flatMap { Array($0.legs) } == Array(0..<route.segmentCount))
            #expect(runs.runs.contains { $0.legs.count > 1 }, "short legs share runs")
            for run in runs.runs {
                for leg in run.legs {
                    let own = try #require(route.corridorBox(ofSegment: leg, detourKm: detour))
                    #expect(run.box.minLat <= own.minLat && run.box.maxLat >= own.maxLat && run.box.minLng <= own.minLng && run.box.maxLng >= own.maxLng)
                }
            }
        }
    }

    @Test func longWanderingDrivesFindExactlyWhatABruteForceScanFinds() throws {
        var generator = SeededGenerator(seed: 19)
        var found = 0
        for (lengthKm, detour) in [(20.0, 2.0), (80, 0.1), (150, 2), (60, 5), (200, 20), (40, 0.7), (1, 2), (300, 1)] {
            var route = try drive(&generator, lengthKm: lengthKm)
            // Back along itself: the same stations, each at its first pass.
            route = try RoutePath(points: route.points + route.points.reversed().dropFirst())
            let hits = Self.index.corridor(route, detourKm: detour)
            #expect(hits == bruteForce(route, detourKm: detour), "\(lengthKm) km, detour \(detour)")
            found += hits.count
        }
        #expect(found > 1_000)
    }

    /// A station exactly `detourKm` from the route is in; a hair further is out, wherever its leg sits in a run.
    @Test func aStationExactlyAtTheDetourIsIncluded() throws {
        var generator = SeededGenerator(seed: 23)
        let route = try drive(&generator, lengthKm: 60)
        let hits = Self.index.corridor(route, detourKm: 3)
        #expect(hits.count > 20)
        for hit in hits.prefix(40) {
            let exact = Self.index.corridor(route, detourKm: hit.detourKm)
            #expect(exact.contains(hit))
            let closer = Self.index.corridor(route, detourKm: hit.detourKm.nextDown)
            #expect(!closer.contains { $0.slot == hit.slot })
        }
    }

    @Test func alongSkipsStationsWithoutTheFuelAndAgreesWithTheCorridor() throws {
        var generator = SeededGenerator(seed: 29)
        let route = try drive(&generator, lengthKm: 100)
        let all = Self.index.corridor(route, detourKm: 2)
        let page = try Self.index.along(AlongQuery(route: route, detourKm: 2, fuel: .U91, sort: .price, limit: 500))
        #expect(page.total == all.count && page.total > 50)
        #expect(try Self.index.along(AlongQuery(route: route, detourKm: 2, fuel: .DL, limit: 500)).total == 0)
    }
}

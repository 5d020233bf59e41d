import Foundation
import Testing

@testable import Fuel
import TestSupport

@Suite struct GeoTests {
    let sydney = Coordinate(latitude: -33.8688, longitude: 151.2093)
    let melbourne = Coordinate(latitude: -37.8136, longitude: 144.9631)

    @Test func sydneyToMelbourneIsAbout713Km() {
        let distance = sydney.distanceKm(to: melbourne)
        #expect(abs(distance - 713.4) < 1.5)
        #expect(abs(melbourne.distanceKm(to: sydney) - distance) < 1e-9)
    }

    /// The series below `SmallAngle.limit` stands in for libm: within one unit in the last place of it on both
    /// sides of the limit, so a distance differs from libm's haversine by at most a few ulps.
    @Test func smallAnglesAgreeWithLibmWithinAnUlp() {
        // The worst disagreement in units in the last place of libm's answer.
        func ulps(_ x: Double) -> Double {
            max(abs(SmallAngle.sin(x) - sin(x)) / sin(x).magnitude.ulp, abs(SmallAngle.asin(x) - asin(x)) / asin(x).magnitude.ulp)
        }
        var random = SplitMix64(seed: 11)
        var worst = 0.0
        for _ in 0..<200_000 {
            worst = max(worst, ulps(Double(random.next() % 2_000_001) / 1_000_000 * SmallAngle.limit - SmallAngle.limit))
        }
        #expect(worst <= 1)
        for x in [SmallAngle.limit.nextDown, SmallAngle.limit, -SmallAngle.limit.nextDown, 1e-9, 0.5, -1, 1, 0, -0.0] {
            #expect(ulps(x) <= 1, "at \(x)")
        }
        // A leg of a route and a nearby station: the libm haversine, to a millimetre in a billion.
        let near = Coordinate(latitude: -33.8, longitude: 151.1)
        let libm = 2 * Coordinate.earthRadiusKm * asin((pow(sin((near.latitude - sydney.latitude) * .pi / 360), 2)
            + cos(sydney.latitude * .pi / 180) * cos(near.latitude * .pi / 180)
            * pow(sin((near.longitude - sydney.longitude) * .pi / 360), 2)).squareRoot())
        #expect(abs(sydney.distanceKm(to: near) - libm) < 1e-9)
    }

    @Test func aPointIsZeroKmFromItself() {
        #expect(sydney.distanceKm(to: sydney) == 0)
    }

    @Test func aValidBoundingBoxKeepsItsCorners() throws {
        let box = try BoundingBox(minLat: -34, minLng: 150, maxLat: -33, maxLng: 151.5)
        #expect(box.contains(sydney))
        #expect(!box.contains(melbourne))
        #expect(box.contains(Coordinate(latitude: -34, longitude: 150)))
    }

    @Test func boundingBoxValidationNamesTheProblem() {
        #expect(throws: BoundingBox.ValidationError.minimumAboveMaximum) {
            try BoundingBox(minLat: -33, minLng: 150, maxLat: -34, maxLng: 151)
        }
        #expect(throws: BoundingBox.ValidationError.latitudeOutOfRange) {
            try BoundingBox(minLat: -95, minLng: 150, maxLat: -34, maxLng: 151)
        }
        #expect(throws: BoundingBox.ValidationError.longitudeOutOfRange) {
            try BoundingBox(minLat: -35, minLng: 150, maxLat: -34, maxLng: 181)
        }
        #expect(throws: BoundingBox.ValidationError.notFinite) {
            try BoundingBox(minLat: .nan, minLng: 150, maxLat: -34, maxLng: 151)
        }
    }

    @Test func theBoxAroundACircleContainsEveryPointOfTheCircle() {
        let box = BoundingBox(around: melbourne, radiusKm: 50)
        for bearing in stride(from: 0.0, to: 360, by: 5) {
            let point = destination(from: melbourne, km: 49.99, bearingDegrees: bearing)
            #expect(box.contains(point), "bearing \(bearing)")
        }
    }

    @Test func theSpatialIndexAgreesWithABruteForceScan() {
        var generator = SeededGenerator(seed: 42)
        let points = (0..<8_000).map { _ in
            Coordinate(
                latitude: Double.random(in: -44 ... -10, using: &generator),
                longitude: Double.random(in: 112...154, using: &generator))
        }
        let index = SpatialIndex(points: points)
        for _ in 0..<200 {
            let center = Coordinate(
                latitude: Double.random(in: -45 ... -9, using: &generator),
                longitude: Double.random(in: 111...155, using: &generator))
            let radius = Double.random(in: 0.5...150, using: &generator)
            let expected = Dictionary(uniqueKeysWithValues: points.indices.compactMap { slot in
                let distance = center.distanceKm(to: points[slot])
                return distance <= radius ? (slot, distance) : nil
            })
            // The index's precomputed cosines give the very same distances, to the bit.
            let found = index.near(center, radiusKm: radius)
            #expect(Dictionary(uniqueKeysWithValues: found.map { ($0.slot, $0.distanceKm) }) == expected)

            let lat = Double.random(in: -45 ... -9, using: &generator)
            let lng = Double.random(in: 111...155, using: &generator)
            let box = try! BoundingBox(
                minLat: lat, minLng: lng, maxLat: lat + Double.random(in: 0...3, using: &generator),
                maxLng: lng + Double.random(in: 0...3, using: &generator))
            #expect(index.within(box) == points.indices.filter { box.contains(points[$0]) })
        }
    }

    @Test func theSpatialIndexSkipsInvalidCoordinatesAndSurvivesOutliers() {
        let points = [
            Coordinate(latitude: .nan, longitude: 151), Coordinate(latitude: 0, longitude: 0), sydney,
            Coordinate(latitude: 89, longitude: -179),
        ]
        let index = SpatialIndex(points: points)
        #expect(index.indexedCount == 3)
        #expect(index.near(sydney, radiusKm: 1).map(\.slot) == [2])
        #expect(index.near(Coordinate(latitude: 0, longitude: 0), radiusKm: 1).map(\.slot) == [1])
    }

    /// Every station measured the plain way: the index must return exactly these, with the same distances.
    func bruteForce(_ points: [Coordinate], _ center: Coordinate, _ radius: Double) -> [Int: Double] {
        Dictionary(uniqueKeysWithValues: points.indices.compactMap { slot in
            let distance = center.distanceKm(to: points[slot])
            return distance <= radius ? (slot, distance) : nil
        })
    }

    func found(_ index: SpatialIndex, _ center: Coordinate, _ radius: Double) -> [Int: Double] {
        Dictionary(uniqueKeysWithValues: index.near(center, radiusKm: radius).map { ($0.slot, $0.distanceKm) })
    }

    @Test func aStationExactlyAtTheRadiusIsFound() {
        // Dense like a city: many stations a few km apart. Each radius is the plain distance to one of them.
        var generator = SeededGenerator(seed: 5)
        let points = (0..<3_000).map { _ in
            Coordinate(latitude: Double.random(in: -34.2 ... -33.5, using: &generator), longitude: Double.random(in: 150.6...151.4, using: &generator))
        }
        let index = SpatialIndex(points: points)
        for _ in 0..<300 {
            let center = Coordinate(
                latitude: Double.random(in: -34.3 ... -33.4, using: &generator), longitude: Double.random(in: 150.5...151.5, using: &generator))
            let target = Int.random(in: 0..<points.count, using: &generator)
            let radius = center.distanceKm(to: points[target])
            let hits = found(index, center, radius)
            #expect(hits[target] == radius, "station \(target) at exactly \(radius) km")
            #expect(hits == bruteForce(points, center, radius))
            // Just inside the station's distance, it is gone.
            #expect(found(index, center, radius.nextDown)[target] == nil)
        }
    }

    @Test func stationsOnStripEdgesAndCirclesThroughThemAreFoundAsThePlainScanFindsThem() throws {
        // A lattice on the strips' own boundaries (0.01° from the southernmost point), so stations, centres and
        // box edges sit exactly where one strip ends and the next begins, and radii pass through lattice points.
        let strip = SpatialIndex.defaultCellDegrees
        let points = (0..<40).flatMap { row in
            (0..<40).map { column in Coordinate(latitude: -34 + Double(row) * strip, longitude: 151 + Double(column) * strip / 2) }
        }
        let index = SpatialIndex(points: points)
        for (row, column) in [(0, 0), (10, 10), (20, 7), (39, 39), (13, 0), (25, 31)] {
            let center = points[row * 40 + column]
            for (otherRow, otherColumn) in [(row, 0), (0, column), (39, 39), (17, 23), (row + 1, column)] where otherRow < 40 {
                let radius = center.distanceKm(to: points[otherRow * 40 + otherColumn])
                guard radius > 0 else { continue }
                #expect(found(index, center, radius) == bruteForce(points, center, radius), "centre \(row),\(column) radius \(radius)")
            }
            let box = try BoundingBox(
                minLat: center.latitude, minLng: center.longitude, maxLat: center.latitude + 5 * strip, maxLng: center.longitude + 3 * strip)
            #expect(index.within(box) == points.indices.filter { box.contains(points[$0]) })
        }
    }

    @Test func aRadiusPastTheAntipodeFindsEveryStation() {
        let points = [sydney, melbourne, Coordinate(latitude: 51.5, longitude: -0.1), Coordinate(latitude: 33.9, longitude: -28.8)]
        let index = SpatialIndex(points: points)
        #expect(Set(index.near(sydney, radiusKm: 25_000).map(\.slot)) == [0, 1, 2, 3])
        #expect(found(index, sydney, 19_000) == bruteForce(points, sydney, 19_000))
    }

    /// The point `km` away along a great circle.
    func destination(from start: Coordinate, km: Double, bearingDegrees: Double) -> Coordinate {
        let angular = km / Coordinate.earthRadiusKm
        let bearing = bearingDegrees * .pi / 180
        let lat1 = start.latitude * .pi / 180
        let lng1 = start.longitude * .pi / 180
        let lat2 = asin(sin(lat1) * cos(angular) + cos(lat1) * sin(angular) * cos(bearing))
        let lng2 = lng1 + atan2(sin(bearing) * sin(angular) * cos(lat1), cos(angular) - sin(lat1) * sin(lat2))
        return Coordinate(latitude: lat2 * 180 / .pi, longitude: lng2 * 180 / .pi)
    }
}

/// The seeded generator the Fuel tests name.
typealias SeededGenerator = SplitMix64

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

import Foundation

/// A route's legs grouped into runs of neighbours for one corridor search. Consecutive legs' corridor boxes
/// overlap, so scanning them leg by leg visits a station near the route once per leg; a run's box holds every one
/// of its legs' corridor boxes and is scanned once, each station then tested against the run's legs.
struct CorridorRuns {
    struct Run {
        var legs: Range<Int>
        var box: BoundingBox
    }

    /// The latitude/longitude bounds of a leg's two ends.
    struct LegBounds {
        var minLat, maxLat, minLng, maxLng: Double
    }

    /// In route order, every leg in one, except legs whose corridor box would reach a pole (as `corridorBox`, none).
    private(set) var runs: [Run] = []

    /// A run grows while its points fit in a square this many km on a side: a wider run's box holds more stations
    /// near none of its legs, a narrower one repeats the search of shared ground (each box reaches `detourKm` past
    /// its run on every side, so neighbouring boxes overlap by twice that) and pays a strip search per box. Twice
    /// the detour: over 300 of the bench's Sydney and Melbourne routes at 2 km it asks 29 boxes per route where a
    /// span of one detour asked 67 and scans 147 members where it scanned 226, and over all 1,000 it searches in
    /// 13 % less time (`PettyBench along-search`). Since each visited station is measured against every leg of its
    /// run, spans of 1, 1.5, 3 and 4 detours were tried again: 12.6, 10.7, 10.5 and 11.1 µs a route against 10.1.
    static func runSpanKm(detourKm: Double) -> Double { 2 * max(1, detourKm) }
    static let maximumLegsPerRun = 16

    init(route: RoutePath, detourKm: Double) {
        let points = route.points
        let kmPerDegree = RoutePath.kmPerDegree
        let dLat = detourKm / kmPerDegree
        let spanDegrees = Self.runSpanKm(detourKm: detourKm) / kmPerDegree
        func legBounds(_ leg: Int) -> LegBounds {
            let a = points[leg], b = points[leg + 1]
            return LegBounds(
                minLat: min(a.latitude, b.latitude), maxLat: max(a.latitude, b.latitude),
                minLng: min(a.longitude, b.longitude), maxLng: max(a.longitude, b.longitude))
        }
        var leg = 0
        while leg < route.segmentCount {
            // The longitude span is judged at the first point's latitude: it decides only where runs are cut.
            let lngScale = max(0.01, route.cosLatitudes[leg])
            var bounds = legBounds(leg)
            var end = leg
            while end < route.segmentCount && end - leg < Self.maximumLegsPerRun {
                let next = legBounds(end)
                let grown = LegBounds(
                    minLat: min(bounds.minLat, next.minLat), maxLat: max(bounds.maxLat, next.maxLat),
                    minLng: min(bounds.minLng, next.minLng), maxLng: max(bounds.maxLng, next.maxLng))
                guard max(abs(next.minLat - dLat), abs(next.maxLat + dLat)) < 89 else { break }
                if end > leg && (grown.maxLat - grown.minLat > spanDegrees || (grown.maxLng - grown.minLng) * lngScale > spanDegrees) {
                    break
                }
                bounds = grown
                end += 1
            }
            guard end > leg else {
                leg += 1  // its corridor box would reach a pole: no corridor, as `corridorBox` says
                continue
            }
            // Widened east-west by what `detourKm` spans at the run's highest |latitude|, as `corridorBox` does per
            // leg: the run's box holds each of its legs' boxes.
            let widest = max(abs(bounds.minLat - dLat), abs(bounds.maxLat + dLat))
            let dLng = detourKm / (kmPerDegree * cos(widest * Double.pi / 180))
            if let box = try? BoundingBox(
                minLat: bounds.minLat - dLat, minLng: max(-180, bounds.minLng - dLng),
                maxLat: bounds.maxLat + dLat, maxLng: min(180, bounds.maxLng + dLng))
            {
                runs.append(Run(legs: leg..<end, box: box))
            }
            leg = end
        }
    }
}

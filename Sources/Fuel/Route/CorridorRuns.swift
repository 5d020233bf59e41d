import Foundation

/// A route's legs grouped into runs of neighbours for one corridor search. Consecutive legs' corridor boxes
/// overlap, so scanning them leg by leg visits a station near the route once per leg; a run's box holds every one
/// of its legs' corridor boxes and is scanned once, each station then tested against the run's legs.
struct CorridorRuns {
    struct Run {
        var legs: Range<Int>
        /// Within ±180°: a station found in it is measured at its longitude plus `longitudeShift`, in the route's
        /// frame (`RoutePath.framePoints`). A run whose box crosses the antimeridian is two runs, one per side.
        var box: BoundingBox
        var longitudeShift: Double
    }

    /// The latitude/longitude bounds of a leg's two ends, or of a piece of a leg.
    struct LegBounds {
        var minLat, maxLat, minLng, maxLng: Double

        init(_ a: Coordinate, _ b: Coordinate) {
            minLat = min(a.latitude, b.latitude)
            maxLat = max(a.latitude, b.latitude)
            minLng = min(a.longitude, b.longitude)
            maxLng = max(a.longitude, b.longitude)
        }

        func union(_ other: LegBounds) -> LegBounds {
            var grown = self
            grown.minLat = min(minLat, other.minLat)
            grown.maxLat = max(maxLat, other.maxLat)
            grown.minLng = min(minLng, other.minLng)
            grown.maxLng = max(maxLng, other.maxLng)
            return grown
        }

        /// How many squares of `spanDegrees` (longitude scaled by `lngScale`) it takes to cover the longer side.
        func spans(_ spanDegrees: Double, lngScale: Double) -> Double {
            max(maxLat - minLat, (maxLng - minLng) * lngScale) / spanDegrees
        }
    }

    /// In route order, every leg in at least one, except legs whose corridor box would reach a pole (as
    /// `corridorBox`, none).
    private(set) var runs: [Run] = []

    /// A run grows while its points fit in a square this many km on a side: a wider run's box holds more stations
    /// near none of its legs, a narrower one repeats the search of shared ground (each box reaches `detourKm` past
    /// its run on every side, so neighbouring boxes overlap by twice that) and pays a strip search per box. Twice
    /// the detour: over 300 of the bench's Sydney and Melbourne routes at 2 km it asks 29 boxes per route where a
    /// span of one detour asked 67 and scans 147 members where it scanned 226, and over all 1,000 it searches in
    /// 13 % less time (`PettyBench along-search`). Since each visited station is measured against every leg of its
    /// run, spans of 1, 1.5, 3 and 4 detours were tried again: 12.6, 10.7, 10.5 and 11.1 µs a route against 10.1.
    /// A single leg longer than that is cut into pieces of at most the span, one box each: every box is then at
    /// most a span plus two detours on a side, whatever the route.
    static func runSpanKm(detourKm: Double) -> Double { 2 * max(1, detourKm) }
    static let maximumLegsPerRun = 16

    init(route: RoutePath, detourKm: Double) {
        let points = route.framePoints
        let kmPerDegree = RoutePath.kmPerDegree
        let dLat = detourKm / kmPerDegree
        let spanDegrees = Self.runSpanKm(detourKm: detourKm) / kmPerDegree
        func reachesPole(_ bounds: LegBounds) -> Bool { max(abs(bounds.minLat - dLat), abs(bounds.maxLat + dLat)) >= 89 }
        var leg = 0
        while leg < route.segmentCount {
            // The longitude span is judged at the first point's latitude: it decides only where runs are cut.
            let lngScale = max(0.01, route.cosLatitudes[leg])
            var bounds = LegBounds(points[leg], points[leg + 1])
            if reachesPole(bounds) {
                leg += 1  // its corridor box would reach a pole: no corridor, as `corridorBox` says
                continue
            }
            let spans = bounds.spans(spanDegrees, lngScale: lngScale)
            if spans > 1 {
                let pieces = Int(spans.rounded(.up))
                let a = points[leg], b = points[leg + 1]
                func at(_ piece: Int) -> Coordinate {
                    let t = Double(piece) / Double(pieces)
                    return Coordinate(latitude: a.latitude + t * (b.latitude - a.latitude), longitude: a.longitude + t * (b.longitude - a.longitude))
                }
                for piece in 0..<pieces {
                    // The ends (exactly the leg's at 0 and `pieces`) are shared by neighbouring pieces.
                    let from = piece == 0 ? a : at(piece), to = piece == pieces - 1 ? b : at(piece + 1)
                    append(leg..<(leg + 1), LegBounds(from, to), dLat: dLat, detourKm: detourKm)
                }
                leg += 1
                continue
            }
            var end = leg + 1
            while end < route.segmentCount && end - leg < Self.maximumLegsPerRun {
                let next = LegBounds(points[end], points[end + 1])
                let grown = bounds.union(next)
                guard !reachesPole(next), grown.spans(spanDegrees, lngScale: lngScale) <= 1 else { break }
                bounds = grown
                end += 1
            }
            append(leg..<end, bounds, dLat: dLat, detourKm: detourKm)
            leg = end
        }
    }

    /// The run of `legs` whose points lie in `bounds` (in the route's frame): widened by `detourKm` north-south and
    /// east-west by what it spans at the box's highest |latitude|, as `corridorBox` does per leg, so the box holds
    /// each of its legs' corridor boxes; then cut at the antimeridian into boxes within ±180°.
    private mutating func append(_ legs: Range<Int>, _ bounds: LegBounds, dLat: Double, detourKm: Double) {
        let widest = max(abs(bounds.minLat - dLat), abs(bounds.maxLat + dLat))
        let dLng = detourKm / (RoutePath.kmPerDegree * cos(widest * Double.pi / 180))
        let west = bounds.minLng - dLng, east = bounds.maxLng + dLng
        var turn = ((west + 180) / 360).rounded(.down)
        while turn * 360 - 180 <= east {
            let shift = turn * 360
            if let box = try? BoundingBox(
                minLat: bounds.minLat - dLat, minLng: max(-180, west - shift),
                maxLat: bounds.maxLat + dLat, maxLng: min(180, east - shift))
            {
                runs.append(Run(legs: legs, box: box, longitudeShift: shift))
            }
            turn += 1
        }
    }
}

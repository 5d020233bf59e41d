import Foundation

/// A driven route as a polyline, with the distance along it to each point (great-circle km per leg).
public struct RoutePath: Hashable, Sendable {
    public enum ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
        case tooFewPoints
        case tooLong(lengthKm: Double, limitKm: Double)

        public var description: String {
            switch self {
            case .tooFewPoints: "needs at least 2 points"
            case .tooLong(let length, let limit): "is \(Int(length.rounded())) km long; at most \(Int(limit)) km"
            }
        }
    }

    public let points: [Coordinate]
    /// `points` with longitudes moved by whole turns so that no leg spans more than 180°: each leg takes the short
    /// way round, across the antimeridian where that is shorter, as its great-circle length does. Legs are
    /// measured in this frame; a leg from 179.99° to -179.99° is 0.02° long here, not 359.98° across Australia.
    let framePoints: [Coordinate]
    /// `cumulativeKm[i]`: km from the start to `points[i]`.
    public let cumulativeKm: [Double]
    /// Each point's `cosLatitude`, computed once for the leg lengths and kept for the corridor search.
    public let cosLatitudes: [Double]
    public var lengthKm: Double { cumulativeKm.last ?? 0 }

    public init(points: [Coordinate], maximumLengthKm: Double = .infinity) throws(ValidationError) {
        guard points.count >= 2 else { throw .tooFewPoints }
        var cumulative = [0.0]
        cumulative.reserveCapacity(points.count)
        // Each point's cosine once, not once per leg end.
        let cosLatitudes = points.map(\.cosLatitude)
        for index in 1..<points.count {
            let leg = points[index - 1].distanceKm(
                to: points[index], cosLatitude: cosLatitudes[index - 1], otherCosLatitude: cosLatitudes[index])
            cumulative.append(cumulative[index - 1] + leg)
        }
        guard cumulative[cumulative.count - 1] <= maximumLengthKm else {
            throw .tooLong(lengthKm: cumulative[cumulative.count - 1], limitKm: maximumLengthKm)
        }
        self.points = points
        self.framePoints = Self.unwrapped(points)
        self.cumulativeKm = cumulative
        self.cosLatitudes = cosLatitudes
    }

    public var segmentCount: Int { points.count - 1 }

    /// Where `point` sits against leg `segment` (from `points[segment]` to the next): km off the leg, and km from
    /// the route's start to the leg's closest point. Distances come from a flat projection centred on `point`
    /// (kilometres per degree of longitude shrink with its latitude), accurate to well under 1% for legs of
    /// tens of km; the along distance interpolates the leg's great-circle length.
    public func offset(of point: Coordinate, fromSegment segment: Int) -> (offKm: Double, alongKm: Double) {
        offset(of: point, cosLatitude: point.cosLatitude, fromSegment: segment)
    }

    /// `offset(of:fromSegment:)` with `point.cosLatitude` already known; bit-identical to it.
    @inline(__always)
    public func offset(of point: Coordinate, cosLatitude: Double, fromSegment segment: Int) -> (offKm: Double, alongKm: Double) {
        precondition(segment >= 0 && segment < segmentCount, "no leg \(segment) in a route of \(segmentCount)")
        // The point in the leg's frame: within half a turn of the leg's start.
        let start = framePoints[segment].longitude
        let framed = Coordinate(latitude: point.latitude, longitude: point.longitude + 360 * ((start - point.longitude) / 360).rounded())
        return withLegMeasure { $0.offset(of: framed, xScale: Self.kmPerDegree * cosLatitude, fromSegment: segment) }
    }

    /// `points` as `framePoints` holds them.
    private static func unwrapped(_ points: [Coordinate]) -> [Coordinate] {
        var framed = points
        for index in framed.indices.dropFirst() {
            var step = points[index].longitude - points[index - 1].longitude
            if step > 180 { step -= 360 } else if step < -180 { step += 360 }
            framed[index].longitude = framed[index - 1].longitude + step
        }
        return framed
    }

    /// `body` given this route's legs to measure, its arrays read in place for the call.
    @inline(__always)
    func withLegMeasure<Result>(_ body: (LegMeasure) -> Result) -> Result {
        framePoints.withUnsafeBufferPointer { points in
            cumulativeKm.withUnsafeBufferPointer { cumulativeKm in body(LegMeasure(points: points, cumulativeKm: cumulativeKm)) }
        }
    }

    /// A box holding every point within `detourKm` (as `offset` measures it) of leg `segment`: the leg's box
    /// widened by `detourKm` north-south, and east-west by what `detourKm` spans at the box's highest |latitude|.
    /// nil for a box that would reach a pole (no Australian route does). Its longitudes are the route's frame's
    /// (`framePoints`), clamped to ±180°: for a leg across the antimeridian, the part on its first point's side.
    public func corridorBox(ofSegment segment: Int, detourKm: Double) -> BoundingBox? {
        let a = framePoints[segment], b = framePoints[segment + 1]
        let dLat = detourKm / Self.kmPerDegree
        let minLat = min(a.latitude, b.latitude) - dLat, maxLat = max(a.latitude, b.latitude) + dLat
        let widest = max(abs(minLat), abs(maxLat))
        guard widest < 89 else { return nil }
        let dLng = detourKm / (Self.kmPerDegree * cos(widest * Double.pi / 180))
        return try? BoundingBox(
            minLat: minLat, minLng: max(-180, min(a.longitude, b.longitude) - dLng),
            maxLat: maxLat, maxLng: min(180, max(a.longitude, b.longitude) + dLng))
    }

    static let kmPerDegree = Coordinate.kmPerDegree
}

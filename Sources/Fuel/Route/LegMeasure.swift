/// Where a point sits against the legs of a route, read from the route's arrays in place: what `RoutePath.offset`
/// answers, and what a corridor search asks of hundreds of candidates per request.
struct LegMeasure {
    let points: UnsafeBufferPointer<Coordinate>
    let cumulativeKm: UnsafeBufferPointer<Double>

    /// km off leg `segment` and km from the route's start to its closest point, in a flat frame centred on `point`
    /// (`xScale`: km per degree of longitude at the point's latitude); see `RoutePath.offset(of:fromSegment:)`.
    @inline(__always)
    func offset(of point: Coordinate, xScale: Double, fromSegment segment: Int) -> (offKm: Double, alongKm: Double) {
        let (off, t) = closest(to: point, xScale: xScale, onSegment: segment)
        return (off, along(segment, t))
    }

    /// The leg of `legs` nearest `point` of those nearer than `limit`, as `offset` measures them, the earliest on a
    /// tie: what measuring each in order and keeping only a strictly nearer one finds. Every leg is measured and
    /// the nearest picked without a branch: a cheap bound per leg, then a branch on it, mispredicted at random,
    /// costs more than measuring them all.
    @inline(__always)
    func nearest(to point: Coordinate, xScale: Double, among legs: Range<Int>, nearerThan limit: Double) -> (offKm: Double, alongKm: Double)? {
        var nearest = limit, nearestLeg = -1, nearestT = 0.0
        for segment in legs {
            let (off, t) = closest(to: point, xScale: xScale, onSegment: segment)
            let nearer = off < nearest
            nearest = nearer ? off : nearest
            nearestT = nearer ? t : nearestT
            nearestLeg = nearer ? segment : nearestLeg
        }
        guard nearestLeg >= 0 else { return nil }
        return (nearest, along(nearestLeg, nearestT))
    }

    /// km from `point` to leg `segment`, and where on the leg (0 at its start, 1 at its end) the closest point is.
    @inline(__always)
    private func closest(to point: Coordinate, xScale: Double, onSegment segment: Int) -> (offKm: Double, t: Double) {
        let a = points[segment], b = points[segment + 1]
        let kmPerDegree = RoutePath.kmPerDegree
        let ax = (a.longitude - point.longitude) * xScale, ay = (a.latitude - point.latitude) * kmPerDegree
        let bx = (b.longitude - point.longitude) * xScale, by = (b.latitude - point.latitude) * kmPerDegree
        let dx = bx - ax, dy = by - ay
        let lengthSquared = dx * dx + dy * dy
        let t = lengthSquared > 0 ? min(1, max(0, -(ax * dx + ay * dy) / lengthSquared)) : 0
        let cx = ax + t * dx, cy = ay + t * dy
        return ((cx * cx + cy * cy).squareRoot(), t)
    }

    @inline(__always)
    private func along(_ segment: Int, _ t: Double) -> Double {
        cumulativeKm[segment] + t * (cumulativeKm[segment + 1] - cumulativeKm[segment])
    }
}

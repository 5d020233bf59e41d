/// A changed price at its station's place, with the cosine of its latitude at hand (what `distanceKm` needs of
/// each end, computed once per change rather than once per alert meeting it).
protocol PlacedChange {
    var location: Coordinate { get }
    var cosLatitude: Double { get }
}

/// The changes of one grid cell within a `near` alert's radius. The cell's changes are in latitude order, and no
/// point further in latitude than the radius is within it, so only those in the radius's band of latitudes are
/// measured: the alerts of a city's cell meet its changes without measuring every pair.
enum RadiusBand {
    /// Calls `body` with each of `changes` (in ascending latitude) within `radiusKm` of `center`, and its distance,
    /// until `body` returns false.
    static func forEach<Change: PlacedChange>(
        in changes: [Change], within radiusKm: Double, of center: Coordinate, _ body: (Change, Double) -> Bool
    ) {
        // A metre more than the radius: the band's edges are rounded like any other computation.
        let latitudeSpan = (radiusKm + 0.001) / Coordinate.kmPerDegree
        let lowest = center.latitude - latitudeSpan
        let highest = center.latitude + latitudeSpan
        var position = changes.partitionPoint { $0.location.latitude >= lowest }
        guard position < changes.count, changes[position].location.latitude <= highest else { return } // no cosine for an empty band
        let cosLatitude = center.cosLatitude
        while position < changes.count, changes[position].location.latitude <= highest {
            let change = changes[position]
            position += 1
            let distance = center.distanceKm(to: change.location, cosLatitude: cosLatitude, otherCosLatitude: change.cosLatitude)
            guard distance <= radiusKm else { continue }
            guard body(change, distance) else { return }
        }
    }
}

import Foundation

extension Coordinate {
    /// Mean Earth radius (IUGG), in km.
    public static let earthRadiusKm = 6_371.0088

    /// Great-circle (haversine) distance to `other`, in km.
    public func distanceKm(to other: Coordinate) -> Double {
        distanceKm(to: other, cosLatitude: cosLatitude, otherCosLatitude: other.cosLatitude)
    }

    /// cos(latitude): what `distanceKm` needs of each end, so an index can keep it per point instead of
    /// recomputing it for every query.
    public var cosLatitude: Double { cos(latitude * (Double.pi / 180)) }

    /// `distanceKm(to:)` with both ends' `cosLatitude` already known; bit-identical to it.
    public func distanceKm(to other: Coordinate, cosLatitude: Double, otherCosLatitude: Double) -> Double {
        let toRadians = Double.pi / 180
        let dLat = other.latitude * toRadians - latitude * toRadians
        let dLng = (other.longitude - longitude) * toRadians
        let sinLat = sin(dLat / 2)
        let sinLng = sin(dLng / 2)
        let h = sinLat * sinLat + cosLatitude * otherCosLatitude * sinLng * sinLng
        return 2 * Self.earthRadiusKm * asin(min(1, h.squareRoot()))
    }
}

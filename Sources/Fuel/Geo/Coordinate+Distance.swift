import Foundation

extension Coordinate {
    /// Mean Earth radius (IUGG), in km.
    public static let earthRadiusKm = 6_371.0088

    /// Great-circle (haversine) distance to `other`, in km.
    public func distanceKm(to other: Coordinate) -> Double {
        let toRadians = Double.pi / 180
        let lat1 = latitude * toRadians
        let lat2 = other.latitude * toRadians
        let dLat = lat2 - lat1
        let dLng = (other.longitude - longitude) * toRadians
        let sinLat = sin(dLat / 2)
        let sinLng = sin(dLng / 2)
        let h = sinLat * sinLat + cos(lat1) * cos(lat2) * sinLng * sinLng
        return 2 * Self.earthRadiusKm * asin(min(1, h.squareRoot()))
    }
}

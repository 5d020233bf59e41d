import Foundation

extension Coordinate {
    /// Mean Earth radius (IUGG), in km.
    public static let earthRadiusKm = 6_371.0088
    /// Kilometres in a degree of latitude (and of longitude at the equator).
    public static let kmPerDegree = earthRadiusKm * Double.pi / 180

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
        let sinLat = SmallAngle.sin(dLat / 2)
        let sinLng = SmallAngle.sin(dLng / 2)
        let h = sinLat * sinLat + cosLatitude * otherCosLatitude * sinLng * sinLng
        return 2 * Self.earthRadiusKm * SmallAngle.asin(min(1, h.squareRoot()))
    }
}

/// sin and asin as libm computes them, with a short Taylor series below `limit`: every distance a motorist asks
/// about (a nearby station, a leg of a route) is an angle of a few thousandths of a radian, where libm's general
/// algorithm takes a tenth of a route search's time. Below the limit the first omitted term is under 1e-19 of the
/// result, so the series is within rounding (one unit in the last place) of libm; above it, libm.
enum SmallAngle {
    /// 2^-10 rad: half-angles of distances up to about 12 km.
    static let limit = 0x1p-10

    @inline(__always)
    static func sin(_ x: Double) -> Double {
        guard abs(x) < limit else { return Foundation.sin(x) }
        let x2 = x * x
        return x + x * (x2 * (-1.0 / 6 + x2 * (1.0 / 120)))
    }

    @inline(__always)
    static func asin(_ y: Double) -> Double {
        guard abs(y) < limit else { return Foundation.asin(y) }
        let y2 = y * y
        return y + y * (y2 * (1.0 / 6 + y2 * (3.0 / 40)))
    }
}

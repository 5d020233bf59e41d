import Foundation

/// A point on the unit sphere. The dot product of two is the cosine of the angle between them, so "within r km"
/// is one comparison of three products against a constant: no trigonometry per candidate.
struct UnitVector: Sendable {
    var x: Double
    var y: Double
    var z: Double

    init(_ point: Coordinate) {
        let toRadians = Double.pi / 180
        let latitude = point.latitude * toRadians
        let longitude = point.longitude * toRadians
        let cosLatitude = cos(latitude)
        x = cosLatitude * cos(longitude)
        y = cosLatitude * sin(longitude)
        z = sin(latitude)
    }

    @inline(__always)
    func dot(_ other: UnitVector) -> Double { x * other.x + y * other.y + z * other.z }

    /// Every point the haversine puts within `radiusKm` of another has a dot product with it of at least this.
    /// The margin (about a metre at 5 km) is far above the rounding of either formula and far below what a
    /// candidate costs: the few it lets through are measured exactly and refused there.
    static func minimumDot(withinKm radiusKm: Double) -> Double {
        let angle = radiusKm / Coordinate.earthRadiusKm
        // Past the antipode every point is within reach (cos would wrap around).
        guard angle < Double.pi else { return -.infinity }
        return cos(angle) - margin
    }

    static let margin = 1e-10
}

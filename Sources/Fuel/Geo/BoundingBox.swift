import Foundation

/// A latitude/longitude rectangle (the map viewport of `bbox=minLat,minLng,maxLat,maxLng`).
/// Boxes across the antimeridian are not supported (Australia does not need them).
public struct BoundingBox: Hashable, Codable, Sendable {
    public enum ValidationError: Error, Hashable, Sendable, CustomStringConvertible {
        case notFinite
        case latitudeOutOfRange
        case longitudeOutOfRange
        case minimumAboveMaximum

        public var description: String {
            switch self {
            case .notFinite: "bbox values must be finite numbers"
            case .latitudeOutOfRange: "bbox latitudes must be within -90...90"
            case .longitudeOutOfRange: "bbox longitudes must be within -180...180"
            case .minimumAboveMaximum: "bbox minimum must not exceed maximum (minLat,minLng,maxLat,maxLng)"
            }
        }
    }

    public let minLat: Double
    public let minLng: Double
    public let maxLat: Double
    public let maxLng: Double

    public init(minLat: Double, minLng: Double, maxLat: Double, maxLng: Double) throws(ValidationError) {
        guard [minLat, minLng, maxLat, maxLng].allSatisfy(\.isFinite) else { throw .notFinite }
        guard (-90...90).contains(minLat), (-90...90).contains(maxLat) else { throw .latitudeOutOfRange }
        guard (-180...180).contains(minLng), (-180...180).contains(maxLng) else { throw .longitudeOutOfRange }
        guard minLat <= maxLat, minLng <= maxLng else { throw .minimumAboveMaximum }
        self.minLat = minLat
        self.minLng = minLng
        self.maxLat = maxLat
        self.maxLng = maxLng
    }

    /// The smallest box containing every point within `radiusKm` (great-circle) of `center`.
    /// Near a pole, or for huge radii, it spans all longitudes. Longitudes are clamped at ±180°.
    public init(around center: Coordinate, radiusKm: Double) {
        let angular = max(0, radiusKm) / Coordinate.earthRadiusKm
        let degrees = 180 / Double.pi
        let dLat = angular * degrees
        minLat = max(-90, center.latitude - dLat)
        maxLat = min(90, center.latitude + dLat)
        let cosLat = cos(center.latitude / degrees)
        if minLat <= -90 || maxLat >= 90 || sin(angular) >= cosLat {
            minLng = -180
            maxLng = 180
        } else {
            let dLng = asin(sin(angular) / cosLat) * degrees
            minLng = max(-180, center.longitude - dLng)
            maxLng = min(180, center.longitude + dLng)
        }
    }

    private init(unchecked minLat: Double, _ minLng: Double, _ maxLat: Double, _ maxLng: Double) {
        self.minLat = minLat
        self.minLng = minLng
        self.maxLat = maxLat
        self.maxLng = maxLng
    }

    /// This box with `degrees` more on every side, clamped to the globe.
    func widened(by degrees: Double) -> BoundingBox {
        BoundingBox(
            unchecked: max(-90, minLat - degrees), max(-180, minLng - degrees), min(90, maxLat + degrees), min(180, maxLng + degrees))
    }

    public func contains(_ point: Coordinate) -> Bool {
        point.latitude >= minLat && point.latitude <= maxLat && point.longitude >= minLng
            && point.longitude <= maxLng
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        try self.init(
            minLat: container.decode(Double.self, forKey: .minLat),
            minLng: container.decode(Double.self, forKey: .minLng),
            maxLat: container.decode(Double.self, forKey: .maxLat),
            maxLng: container.decode(Double.self, forKey: .maxLng))
    }

    private enum CodingKeys: String, CodingKey { case minLat, minLng, maxLat, maxLng }
}

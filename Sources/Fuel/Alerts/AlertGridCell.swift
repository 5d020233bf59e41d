import Foundation

/// A cell of the fixed latitude/longitude grid the index files `near` alerts under: a changed price is matched only
/// against the alerts of its own cell. A quarter of a degree (about 28 km north-south) keeps a 25 km circle within
/// a few cells.
public struct AlertGridCell: Hashable, Sendable {
    public static let degrees = 0.25

    public var row: Int32
    public var column: Int32

    public init(row: Int32, column: Int32) {
        self.row = row
        self.column = column
    }

    public init(_ point: Coordinate) {
        row = Int32((point.latitude / Self.degrees).rounded(.down))
        column = Int32((point.longitude / Self.degrees).rounded(.down))
    }

    /// Every cell that a circle of `radiusKm` around `center` touches (its bounding box's cells). The circle is the
    /// haversine one `distanceKm` measures, a metre wider (the box's edges are rounded like any computation): its
    /// widest longitude, `asin(sin(r / R) / cos(latitude))`, is reached poleward of the centre and is a few
    /// centimetres more than `r / (R cos(latitude))` at 25 km.
    public static func covering(_ center: Coordinate, radiusKm: Double) -> [AlertGridCell] {
        let radius = radiusKm + 0.001
        let latitudeSpan = radius / Coordinate.kmPerDegree
        let ratio = sin(radius / Coordinate.earthRadiusKm) / max(center.cosLatitude, 0.01)
        let longitudeSpan = ratio >= 1 ? 180 : min(180, asin(ratio) * 180 / .pi)
        let low = AlertGridCell(Coordinate(latitude: max(-90, center.latitude - latitudeSpan), longitude: center.longitude - longitudeSpan))
        let high = AlertGridCell(Coordinate(latitude: min(90, center.latitude + latitudeSpan), longitude: center.longitude + longitudeSpan))
        return (low.row...high.row).flatMap { row in (low.column...high.column).map { AlertGridCell(row: row, column: $0) } }
    }
}

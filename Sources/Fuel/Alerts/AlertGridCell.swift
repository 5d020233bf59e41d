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

    /// Every cell that a circle of `radiusKm` around `center` touches (its bounding box's cells).
    public static func covering(_ center: Coordinate, radiusKm: Double) -> [AlertGridCell] {
        let kmPerDegree = Coordinate.kmPerDegree
        let latitudeSpan = radiusKm / kmPerDegree
        let cosine = max(center.cosLatitude, 0.01)
        let longitudeSpan = min(180, radiusKm / (kmPerDegree * cosine))
        let low = AlertGridCell(Coordinate(latitude: max(-90, center.latitude - latitudeSpan), longitude: center.longitude - longitudeSpan))
        let high = AlertGridCell(Coordinate(latitude: min(90, center.latitude + latitudeSpan), longitude: center.longitude + longitudeSpan))
        return (low.row...high.row).flatMap { row in (low.column...high.column).map { AlertGridCell(row: row, column: $0) } }
    }
}

/// The stations of a snapshot in latitude strips, each strip sorted by longitude, built once per snapshot. A radius
/// or box query visits only the strips it spans, and in each only the run of stations inside its longitudes (found
/// by binary search), so what it reads is about the query's box, however dense the city.
///
/// Strips are `cellDegrees` tall (0.01°, about 1.1 km: a 5 km circle spans ten, and overshoots its box by at most
/// one strip at each end). Each member keeps what a query reads side by side: its coordinate, cos(latitude) and
/// its point on the unit sphere. Stations with invalid coordinates are not indexed, so geographic queries never
/// return them.
public struct SpatialIndex: Sendable {
    public struct Hit: Hashable, Sendable {
        /// Index into the snapshot's `entries`.
        public var slot: Int
        public var distanceKm: Double
    }

    /// One indexed station.
    struct Member: Sendable {
        var location: Coordinate
        /// `location.cosLatitude`: the haversine of a survivor then costs two sines, not four trig calls.
        var cosLatitude: Double
        var vector: UnitVector
        var slot: Int32
    }

    /// Strip height when none is given.
    public static let defaultCellDegrees = 0.01

    public let cellDegrees: Double
    private let originLat: Double
    private let rows: Int
    /// `rowStart[r]..<rowStart[r + 1]` are strip `r`'s members, west to east.
    private let rowStart: [Int32]
    private let members: [Member]

    /// Keeps the strips over scattered bogus latitudes from growing without bound.
    static let maximumRows = 200_000

    public init(points: [Coordinate], cellDegrees: Double = SpatialIndex.defaultCellDegrees) {
        let valid = points.indices.filter { points[$0].isValid }
        var cell = max(cellDegrees, 0.001)
        let minLat = valid.map { points[$0].latitude }.min() ?? 0
        let maxLat = valid.map { points[$0].latitude }.max() ?? 0
        while Int(((maxLat - minLat) / cell).rounded(.down)) + 1 > Self.maximumRows { cell *= 2 }
        let rows = Int(((maxLat - minLat) / cell).rounded(.down)) + 1
        self.cellDegrees = cell
        self.originLat = minLat
        self.rows = rows

        let rowOf = valid.map { Self.row(points[$0].latitude, minLat, cell, rows) }
        let order = valid.indices.sorted { a, b in
            (rowOf[a], points[valid[a]].longitude, valid[a]) < (rowOf[b], points[valid[b]].longitude, valid[b])
        }
        var rowStart = [Int32](repeating: 0, count: rows + 1)
        for position in valid.indices { rowStart[rowOf[position] + 1] += 1 }
        for row in 0..<rows { rowStart[row + 1] += rowStart[row] }
        self.rowStart = rowStart
        members = order.map { position in
            let point = points[valid[position]]
            return Member(location: point, cosLatitude: point.cosLatitude, vector: UnitVector(point), slot: Int32(valid[position]))
        }
    }

    public init(snapshot: Snapshot, cellDegrees: Double = SpatialIndex.defaultCellDegrees) {
        self.init(points: snapshot.entries.map(\.station.location), cellDegrees: cellDegrees)
    }

    private static func row(_ latitude: Double, _ origin: Double, _ cell: Double, _ rows: Int) -> Int {
        min(rows - 1, max(0, Int(((latitude - origin) / cell).rounded(.down))))
    }

    /// Calls `body` with the position in `members` of each station whose coordinate lies in `box`, in no particular order.
    @inline(__always)
    private func forEachMember(in box: BoundingBox, _ body: (Int) -> Void) {
        guard !members.isEmpty, box.maxLat >= originLat, box.minLat <= originLat + Double(rows) * cellDegrees else { return }
        let firstRow = Self.row(box.minLat, originLat, cellDegrees, rows)
        let lastRow = Self.row(box.maxLat, originLat, cellDegrees, rows)
        members.withUnsafeBufferPointer { members in
            for row in firstRow...lastRow {
                // The first member of the strip at or east of the box's west edge, by a binary search whose step is
                // a conditional move: which way a random point's search goes cannot be predicted.
                let start = Int(rowStart[row]), end = Int(rowStart[row + 1])
                var position = start
                var count = end - start
                while count > 1 {
                    let half = count / 2
                    position = members[position + half].location.longitude < box.minLng ? position + half : position
                    count -= half
                }
                if count == 1, members[position].location.longitude < box.minLng { position += 1 }
                while position < end, members[position].location.longitude <= box.maxLng {
                    let latitude = members[position].location.latitude
                    if latitude >= box.minLat, latitude <= box.maxLat { body(position) }
                    position += 1
                }
            }
        }
    }

    /// Stations within `radiusKm` (great-circle) of `point`, unordered.
    public func near(_ point: Coordinate, radiusKm: Double) -> [Hit] {
        var hits: [Hit] = []
        forEach(near: point, radiusKm: radiusKm, where: { _ in true }) { hits.append($0) }
        return hits
    }

    /// Calls `body` with each station within `radiusKm` (great-circle) of `point` that `wanted` admits, in no
    /// particular order; allocates nothing. `wanted` sees only stations the circle may hold (inside its bounding box,
    /// and within the radius by the unit-sphere test) and runs before the exact distance, so a station it refuses
    /// costs no trigonometry. Distances are `Coordinate.distanceKm(to:)`'s, to the bit.
    public func forEach(near point: Coordinate, radiusKm: Double, where wanted: (Int) -> Bool, _ body: (Hit) -> Void) {
        withoutActuallyEscaping(wanted) { wanted in
            withoutActuallyEscaping(body) { body in
                var visitor = ClosureVisitor(wanted: wanted, body: body)
                forEach(near: point, radiusKm: radiusKm, visiting: &visitor)
            }
        }
    }

    /// `forEach(near:radiusKm:where:_:)` reporting to a value instead of two closures: specialized for the
    /// visitor's type, its tests are inlined into the scan (a nearby list calls them for every station in the box).
    func forEach<Visitor: NearVisitor>(near point: Coordinate, radiusKm: Double, visiting visitor: inout Visitor) {
        guard point.isValid, radiusKm.isFinite, radiusKm >= 0 else { return }
        let box = BoundingBox(around: point, radiusKm: radiusKm).widened(by: Self.edgeDegrees)
        let center = UnitVector(point)
        let minimumDot = UnitVector.minimumDot(withinKm: radiusKm)
        let cosLatitude = point.cosLatitude
        members.withUnsafeBufferPointer { members in
            forEachMember(in: box) { position in
                let member = members[position]
                let slot = Int(member.slot)
                guard center.dot(member.vector) >= minimumDot, visitor.admits(slot) else { return }
                let distance = point.distanceKm(to: member.location, cosLatitude: cosLatitude, otherCosLatitude: member.cosLatitude)
                if distance <= radiusKm { visitor.visit(Hit(slot: slot, distanceKm: distance)) }
            }
        }
    }

    private struct ClosureVisitor: NearVisitor {
        let wanted: (Int) -> Bool
        let body: (Hit) -> Void

        func admits(_ slot: Int) -> Bool { wanted(slot) }
        func visit(_ hit: Hit) { body(hit) }
    }

    /// How far the box around a circle is widened before it picks candidates (about a millimetre): the box is
    /// rounded like any other computation, and a station the haversine puts exactly on the circle must not fall
    /// outside it. The exact distance decides.
    static let edgeDegrees = 1e-8

    /// Stations inside `box` (edges included), in ascending slot order.
    public func within(_ box: BoundingBox) -> [Int] {
        var slots: [Int] = []
        forEach(in: box) { slots.append($0) }
        return slots.sorted()
    }

    /// Calls `body` with each station inside `box` (edges included), in no particular order; allocates nothing.
    public func forEach(in box: BoundingBox, _ body: (Int) -> Void) {
        forEachMember(in: box) { body(Int(members[$0].slot)) }
    }

    public var indexedCount: Int { members.count }
}

/// What a radius scan reports to (`SpatialIndex.forEach(near:radiusKm:visiting:)`).
protocol NearVisitor {
    /// Whether the station at `slot` may be a hit, asked before its distance is measured: a refused one costs no
    /// trigonometry.
    func admits(_ slot: Int) -> Bool
    /// A station within the radius that `admits` let through.
    mutating func visit(_ hit: SpatialIndex.Hit)
}

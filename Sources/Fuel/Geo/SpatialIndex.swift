/// A uniform latitude/longitude grid over a snapshot's stations, built once per snapshot.
/// Answers radius and box queries by visiting only the cells that can hold an answer.
///
/// Cells are `cellDegrees` square (0.1° is about 11 km north-south); the grid covers the stations'
/// bounding box only. Storage is compressed: `cellStart[c]..<cellStart[c+1]` indexes `members`.
/// Stations with invalid coordinates are not indexed, so geographic queries never return them.
public struct SpatialIndex: Sendable {
    public struct Hit: Hashable, Sendable {
        /// Index into the snapshot's `entries`.
        public var slot: Int
        public var distanceKm: Double
    }

    public let cellDegrees: Double
    private let originLat: Double
    private let originLng: Double
    private let rows: Int
    private let columns: Int
    private let cellStart: [Int32]
    private let members: [Int32]
    private let points: [Coordinate]
    /// `points[slot].cosLatitude`, once per snapshot: radius queries then cost two sines per candidate, not four trig calls.
    private let cosLatitudes: [Double]

    /// Keeps a grid over scattered bogus coordinates from growing without bound.
    static let maximumCells = 2_000_000

    public init(points: [Coordinate], cellDegrees: Double = 0.1) {
        let valid = points.indices.filter { points[$0].isValid }
        var cell = max(cellDegrees, 0.001)
        let minLat = valid.map { points[$0].latitude }.min() ?? 0
        let maxLat = valid.map { points[$0].latitude }.max() ?? 0
        let minLng = valid.map { points[$0].longitude }.min() ?? 0
        let maxLng = valid.map { points[$0].longitude }.max() ?? 0
        var rows = 1, columns = 1
        while true {
            rows = Int(((maxLat - minLat) / cell).rounded(.down)) + 1
            columns = Int(((maxLng - minLng) / cell).rounded(.down)) + 1
            if rows * columns <= Self.maximumCells { break }
            cell *= 2
        }
        self.cellDegrees = cell
        self.originLat = minLat
        self.originLng = minLng
        self.rows = rows
        self.columns = columns
        self.points = points
        self.cosLatitudes = points.map(\.cosLatitude)

        var counts = [Int32](repeating: 0, count: rows * columns + 1)
        var cells = [Int](repeating: 0, count: points.count)
        for slot in valid {
            let cellIndex = Self.cell(row: Self.index(points[slot].latitude, minLat, cell, rows),
                                      column: Self.index(points[slot].longitude, minLng, cell, columns), columns)
            cells[slot] = cellIndex
            counts[cellIndex + 1] += 1
        }
        for index in 1..<counts.count { counts[index] += counts[index - 1] }
        var next = counts
        var members = [Int32](repeating: 0, count: valid.count)
        for slot in valid {
            let cellIndex = cells[slot]
            members[Int(next[cellIndex])] = Int32(slot)
            next[cellIndex] += 1
        }
        self.cellStart = counts
        self.members = members
    }

    public init(snapshot: Snapshot, cellDegrees: Double = 0.1) {
        self.init(points: snapshot.entries.map(\.station.location), cellDegrees: cellDegrees)
    }

    private static func index(_ value: Double, _ origin: Double, _ cell: Double, _ count: Int) -> Int {
        min(count - 1, max(0, Int(((value - origin) / cell).rounded(.down))))
    }

    private static func cell(row: Int, column: Int, _ columns: Int) -> Int { row * columns + column }

    /// Calls `body` with each indexed slot in cells overlapping `box`.
    private func forEachCandidate(in box: BoundingBox, _ body: (Int) -> Void) {
        guard !members.isEmpty else { return }
        let maxLat = originLat + Double(rows) * cellDegrees
        let maxLng = originLng + Double(columns) * cellDegrees
        guard box.maxLat >= originLat, box.minLat <= maxLat, box.maxLng >= originLng, box.minLng <= maxLng else {
            return
        }
        let rowRange = Self.index(box.minLat, originLat, cellDegrees, rows)...Self.index(box.maxLat, originLat, cellDegrees, rows)
        let columnRange = Self.index(box.minLng, originLng, cellDegrees, columns)...Self.index(box.maxLng, originLng, cellDegrees, columns)
        for row in rowRange {
            let first = Self.cell(row: row, column: columnRange.lowerBound, columns)
            let last = Self.cell(row: row, column: columnRange.upperBound, columns)
            // Cells of one row are contiguous, so their members are too.
            for position in Int(cellStart[first])..<Int(cellStart[last + 1]) {
                body(Int(members[position]))
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
    /// particular order; allocates nothing. `wanted` sees only stations inside the circle's bounding box and runs
    /// before the distance, so a station it refuses costs no trigonometry.
    public func forEach(near point: Coordinate, radiusKm: Double, where wanted: (Int) -> Bool, _ body: (Hit) -> Void) {
        guard point.isValid, radiusKm.isFinite, radiusKm >= 0 else { return }
        let box = BoundingBox(around: point, radiusKm: radiusKm)
        let cosLatitude = point.cosLatitude
        forEachCandidate(in: box) { slot in
            // The cells overshoot the circle; the bounding box rejects most candidates without trigonometry.
            let candidate = points[slot]
            guard box.contains(candidate), wanted(slot) else { return }
            let distance = point.distanceKm(to: candidate, cosLatitude: cosLatitude, otherCosLatitude: cosLatitudes[slot])
            if distance <= radiusKm { body(Hit(slot: slot, distanceKm: distance)) }
        }
    }

    /// Stations inside `box` (edges included), in ascending slot order.
    public func within(_ box: BoundingBox) -> [Int] {
        var slots: [Int] = []
        forEachCandidate(in: box) { slot in
            if box.contains(points[slot]) { slots.append(slot) }
        }
        return slots.sorted()
    }

    /// Calls `body` with each station inside `box` (edges included), in no particular order; allocates nothing.
    public func forEach(in box: BoundingBox, _ body: (Int) -> Void) {
        forEachCandidate(in: box) { slot in
            if box.contains(points[slot]) { body(slot) }
        }
    }

    public var indexedCount: Int { members.count }
}

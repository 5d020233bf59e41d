import Foundation

/// Map pins spread evenly over the area when more stations match than a map can show (`compact=true`): the
/// matches are dropped on a square grid of latitude/longitude cells and each occupied cell keeps its cheapest
/// station. The grid is the finest on `ladder` that leaves at most `limit` cells occupied, and it is anchored at
/// 0°,0° (not at the viewport), so a cell holds the same stations however the map is panned. Pure and deterministic.
public enum CheapestPerCell {
    public struct Pin: Hashable, Sendable {
        public var id: StationID
        public var location: Coordinate
        /// The price a pin shows, in tenths; nil when it shows none (such a pin loses to any priced one).
        public var tenths: Int?
    }

    public struct Selection: Hashable, Sendable {
        /// Indices into the pins given, in their original order.
        public var kept: [Int]
        /// Nil when every pin fitted and none was dropped.
        public var cellDegrees: Double?
        public var isSampled: Bool { cellDegrees != nil }
    }

    /// Cell sizes tried, coarsest first: 90° halving by quarter steps of a power of two down to about 1 m.
    public static let ladder: [Double] = (0...(4 * 23)).map { step in 90 * pow(2, -Double(step) / 4) }

    /// Every pin when they fit `limit`; otherwise one per occupied cell of the finest grid that keeps at most `limit`.
    public static func select(_ pins: [Pin], limit: Int) -> Selection {
        guard pins.count > max(limit, 0) else { return Selection(kept: Array(pins.indices), cellDegrees: nil) }
        guard limit > 0 else { return Selection(kept: [], cellDegrees: ladder[0]) }
        // Occupancy grows as cells shrink; the coarsest step always fits (a state spans one or a few cells of 90°).
        var fits = 0, tooMany = ladder.count
        if occupied(pins, cell: ladder[fits]) > limit { return Selection(kept: [cheapest(pins)], cellDegrees: 360) }
        while tooMany - fits > 1 {
            let middle = (fits + tooMany) / 2
            if occupied(pins, cell: ladder[middle]) <= limit { fits = middle } else { tooMany = middle }
        }
        let cell = ladder[fits]
        var best: [CellKey: Int] = [:]
        for (index, pin) in pins.enumerated() {
            let key = CellKey(pin.location, cell: cell)
            if let current = best[key], !isCheaper(pin, than: pins[current]) { continue }
            best[key] = index
        }
        return Selection(kept: best.values.sorted(), cellDegrees: cell)
    }

    /// Lower price first, a priced pin before an unpriced one, then the lower id.
    static func isCheaper(_ a: Pin, than b: Pin) -> Bool {
        switch (a.tenths, b.tenths) {
        case let (x?, y?) where x != y: return x < y
        case (_?, nil): return true
        case (nil, _?): return false
        default: return a.id < b.id
        }
    }

    static func occupied(_ pins: [Pin], cell: Double) -> Int {
        var keys = Set<CellKey>()
        for pin in pins { keys.insert(CellKey(pin.location, cell: cell)) }
        return keys.count
    }

    private static func cheapest(_ pins: [Pin]) -> Int {
        pins.indices.min { isCheaper(pins[$0], than: pins[$1]) } ?? 0
    }

    /// A cell of the grid: floor(latitude / cell), floor(longitude / cell).
    public struct CellKey: Hashable, Sendable {
        public let row: Int
        public let column: Int

        public init(_ location: Coordinate, cell: Double) {
            row = Int((location.latitude / cell).rounded(.down))
            column = Int((location.longitude / cell).rounded(.down))
        }
    }
}

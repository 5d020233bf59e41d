import Foundation

/// A grid cell's summary for a zoomed-out map: how many stations, where their middle is, and the lowest price.
public struct StationCluster: Hashable, Sendable {
    /// South-west corner of the cell, in whole cells from (0°, 0°).
    public var row: Int
    public var column: Int
    public var count: Int
    /// Mean of the stations' coordinates (what a map pin sits on).
    public var centroid: Coordinate
    /// The lowest current, plausible price of the asked fuel(s) in the cell, in tenths; nil without a fuel or
    /// when no station in the cell has one that counts.
    public var minPrice: PriceTenths?
    /// The station holding `minPrice` (lowest id on a tie).
    public var minPriceStation: StationID?
}

/// Cell sizes for `cluster=true`.
public enum ClusterGrid {
    /// Cells across the larger side of a viewport when no zoom is given.
    public static let cellsAcrossViewport = 16.0
    /// Whole-country fallback (no bbox, no zoom): half a degree, about 55 km.
    public static let defaultCellDegrees = 0.5
    /// Smallest cell, about 110 m: finer than that a client wants stations, not clusters.
    public static let minimumCellDegrees = 0.001
    /// Most cells one answer holds: past this no map shows them apart, and the country at zoom 22 (every station
    /// its own cell) cost 3.0 ms of CPU and 470 KB (`PettyBench worst --gzip 0`). More would double the cell.
    public static let maxCells = 500

    /// Web-map zoom (256 px tiles): a cell is a quarter tile, so about 64 px on screen at that zoom.
    public static func cellDegrees(zoom: Int) -> Double {
        max(minimumCellDegrees, 360 / Double(1 << min(max(zoom, 0), 22)) / 4)
    }

    /// A viewport split into `cellsAcrossViewport` cells along its larger side.
    public static func cellDegrees(viewport: BoundingBox) -> Double {
        max(minimumCellDegrees, max(viewport.maxLat - viewport.minLat, viewport.maxLng - viewport.minLng) / cellsAcrossViewport)
    }
}

/// The cells of one answer and the cell size they were made with (larger than asked when `maxCells` forced it).
public struct StationClusters: Sendable {
    public var cells: [StationCluster]
    public var cellDegrees: Double
}

extension FuelIndex {
    /// Every match of `query` grouped into square cells of `cellDegrees`, fullest cell first (then south-west first).
    /// Stations without valid coordinates are left out. `fuels` (any of) decides `minPrice`. When the matches fill
    /// more than `maxCells` cells, the cell doubles until they fit.
    public func clusters(
        matching query: StationQuery, cellDegrees: Double, maxCells: Int = ClusterGrid.maxCells
    ) throws(QueryError) -> StationClusters {
        let slots = try allSlots(matching: query)
        var degrees = cellDegrees
        while true {
            if let cells = clusters(of: slots, fuels: Array(Set(query.fuels)), cellDegrees: degrees, maxCells: maxCells) {
                return StationClusters(cells: cells, cellDegrees: degrees)
            }
            degrees *= 2
        }
    }

    /// Nil as soon as a `maxCells + 1`th cell would open: the pass stops there, so the too-fine sizes cost little.
    private func clusters(of slots: [Int], fuels: [FuelType], cellDegrees: Double, maxCells: Int) -> [StationCluster]? {
        let entries = snapshot.entries
        struct Cell { var count = 0, latSum = 0.0, lngSum = 0.0, minPrice: Int?, minStation: StationID? }
        var cells: [Int64: Cell] = [:]
        for slot in slots {
            let station = entries[slot].station
            guard station.location.isValid else { continue }
            let row = Int64((station.location.latitude / cellDegrees).rounded(.down))
            let column = Int64((station.location.longitude / cellDegrees).rounded(.down))
            let key = row << 32 | (column & 0xFFFF_FFFF)
            if cells[key] == nil, cells.count == maxCells { return nil }
            var cell = cells[key] ?? Cell()
            cell.count += 1
            cell.latSum += station.location.latitude
            cell.lngSum += station.location.longitude
            for fuel in fuels where standing(fuel, slot: slot).isEmpty {
                guard let price = priceTenths(fuel, slot: slot) else { continue }
                if cell.minPrice.map({ price < $0 || (price == $0 && station.id < cell.minStation!) }) ?? true {
                    cell.minPrice = price
                    cell.minStation = station.id
                }
            }
            cells[key] = cell
        }
        return cells.map { key, cell in
            StationCluster(
                row: Int(key >> 32), column: Int(Int32(truncatingIfNeeded: key)), count: cell.count,
                centroid: Coordinate(latitude: cell.latSum / Double(cell.count), longitude: cell.lngSum / Double(cell.count)),
                minPrice: cell.minPrice.map { PriceTenths(tenths: $0) }, minPriceStation: cell.minStation)
        }
        .sorted { ($1.count, $0.row, $0.column) < ($0.count, $1.row, $1.column) }
    }
}

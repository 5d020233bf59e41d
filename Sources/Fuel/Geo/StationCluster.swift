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
        let entries = snapshot.entries
        // Each match's cell at the asked size; a doubled cell is the same numbers halved (floor division by 2).
        var placed: [(slot: Int, row: Int64, column: Int64)] = []
        for slot in try allSlots(matching: query) {
            let location = entries[slot].station.location
            guard location.isValid else { continue }
            placed.append((slot, Int64((location.latitude / cellDegrees).rounded(.down)), Int64((location.longitude / cellDegrees).rounded(.down))))
        }
        let doublings = Self.doublings(fitting: placed, maxCells: maxCells)
        let cells = clusters(of: placed, doublings: doublings, fuels: Array(Set(query.fuels)))
        return StationClusters(cells: cells, cellDegrees: cellDegrees * Double(1 << doublings))
    }

    /// How many times the cell must double for `placed` to occupy at most `maxCells` cells. A count stops as soon
    /// as it passes `maxCells`, so the too-fine sizes cost little.
    private static func doublings(fitting placed: [(slot: Int, row: Int64, column: Int64)], maxCells: Int) -> Int {
        var doublings = 0
        var seen = Set<Int64>(minimumCapacity: maxCells + 1)
        while doublings < 62 {
            seen.removeAll(keepingCapacity: true)
            for cell in placed {
                seen.insert(Self.key(row: cell.row >> doublings, column: cell.column >> doublings))
                if seen.count > maxCells { break }
            }
            if seen.count <= maxCells { return doublings }
            doublings += 1
        }
        return doublings
    }

    private static func key(row: Int64, column: Int64) -> Int64 { row << 32 | (column & 0xFFFF_FFFF) }

    private func clusters(of placed: [(slot: Int, row: Int64, column: Int64)], doublings: Int, fuels: [FuelType]) -> [StationCluster] {
        let entries = snapshot.entries
        struct Cell { var count = 0, latSum = 0.0, lngSum = 0.0, minPrice: Int?, minStation: StationID? }
        var cells: [Int64: Cell] = [:]
        for (slot, row, column) in placed {
            let station = entries[slot].station
            let key = Self.key(row: row >> doublings, column: column >> doublings)
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

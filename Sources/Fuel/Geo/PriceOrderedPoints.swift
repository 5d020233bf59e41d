/// For each fuel, the stations whose price of it counts (current, plausible) and whose coordinates are valid,
/// cheapest first (then by slot), each beside its point on the unit sphere. Made for a fuel on the first search
/// for it and kept as long as the snapshot's index: a snapshot nobody asks about a fuel near a point costs nothing.
///
/// A point among many stations finds its cheapest few by walking this from the top: the walk ends as soon as the
/// page is full and the next price is dearer, so it reads a few dozen rows instead of every station in the circle.
final class PriceOrderedPoints: Sendable {
    struct Row: Sendable {
        var vector: UnitVector
        var price: Int32
        var slot: Int32
    }

    /// By `FuelType` ordinal.
    private let made = FuelType.allCases.map { _ in BuiltOnce<[Row]>() }

    init() {}

    /// `fuel`'s rows, made by `build` on the first asking (`BuiltOnce`: outside any lock, so a search never waits
    /// on another's sort; two first searches may both build, and the first stored is kept).
    func rows(_ fuel: FuelType, build: () -> [Row]) -> [Row] {
        made[fuel.ordinal].value(build)
    }

    /// The rows of the fuel at `base` in fuel-major `priceTable` and `standingTable` (one position per slot, as
    /// `FuelIndex` keeps them), cheapest first, then by slot.
    static func build(base: Int, locations: [Coordinate], priceTable: [Int32], standingTable: [UInt8]) -> [Row] {
        var rows: [Row] = []
        for slot in locations.indices where locations[slot].isValid {
            let price = priceTable[base + slot]
            guard price >= 0, standingTable[base + slot] == 0 else { continue }
            rows.append(Row(vector: UnitVector(locations[slot]), price: price, slot: Int32(slot)))
        }
        rows.sort { ($0.price, $0.slot) < ($1.price, $1.slot) }
        return rows
    }
}

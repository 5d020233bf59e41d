/// For each fuel, the stations whose price of it counts (current, plausible) and whose coordinates are valid,
/// cheapest first (then by slot), each beside its point on the unit sphere. Built once per snapshot.
///
/// A point among many stations finds its cheapest few by walking this from the top: the walk ends as soon as the
/// page is full and the next price is dearer, so it reads a few dozen rows instead of every station in the circle.
struct PriceOrderedPoints: Sendable {
    struct Row: Sendable {
        var vector: UnitVector
        var price: Int32
        var slot: Int32
    }

    /// Fuel `f`'s rows are `rows[start[f.ordinal]..<start[f.ordinal + 1]]`.
    private let rows: [Row]
    private let start: [Int]

    /// `priceTable` and `standingTable` as `FuelIndex` keeps them: fuel-major, one position per slot.
    init(locations: [Coordinate], priceTable: [Int32], standingTable: [UInt8]) {
        let count = locations.count
        let vectors = locations.map { $0.isValid ? UnitVector($0) : nil }
        var rows: [Row] = []
        var start = [0]
        for fuel in FuelType.allCases {
            let base = fuel.ordinal * count
            var fuelRows: [Row] = []
            for slot in 0..<count {
                guard let vector = vectors[slot], priceTable[base + slot] >= 0, standingTable[base + slot] == 0 else { continue }
                fuelRows.append(Row(vector: vector, price: priceTable[base + slot], slot: Int32(slot)))
            }
            rows += fuelRows.sorted { ($0.price, $0.slot) < ($1.price, $1.slot) }
            start.append(rows.count)
        }
        self.rows = rows
        self.start = start
    }

    /// Calls `body` with each row of `fuel`, cheapest first, until it returns false.
    @inline(__always)
    func walk(_ fuel: FuelType, _ body: (Row) -> Bool) {
        let range = start[fuel.ordinal]..<start[fuel.ordinal + 1]
        rows.withUnsafeBufferPointer { rows in
            for position in range where !body(rows[position]) { return }
        }
    }
}

import Foundation

/// Everything derived from one snapshot that queries need, computed once when the snapshot is published:
/// the spatial grid, per-state station lists, folded brands, name order, a price timeline and averages.
/// Immutable and shared by all readers of that snapshot.
public final class FuelIndex: Sendable {
    public let snapshot: Snapshot
    public let spatial: SpatialIndex
    public let averages: Averages
    /// Slots of each state's stations, by `AustralianState.allCases` position.
    let slotsByState: [[Int]]
    /// Lower-cased, trimmed brand per slot.
    let brandKeys: [String]
    /// Position of each slot in name order.
    let nameRank: [Int32]
    /// Every price, oldest `updatedAt` first.
    let timeline: [PriceChange]

    public init(snapshot: Snapshot, cellDegrees: Double = 0.1) {
        self.snapshot = snapshot
        let entries = snapshot.entries
        spatial = SpatialIndex(snapshot: snapshot, cellDegrees: cellDegrees)
        averages = Averages(snapshot: snapshot)

        var byState = [[Int]](repeating: [], count: AustralianState.allCases.count)
        for (slot, entry) in entries.enumerated() { byState[entry.station.state.ordinal].append(slot) }
        slotsByState = byState

        brandKeys = entries.map { StationQuery.fold($0.station.brand) }

        let names = entries.map { StationQuery.fold($0.station.name) }
        let order = entries.indices.sorted { names[$0] != names[$1] ? names[$0] < names[$1] : $0 < $1 }
        var rank = [Int32](repeating: 0, count: entries.count)
        for (position, slot) in order.enumerated() { rank[slot] = Int32(position) }
        nameRank = rank

        var timeline: [PriceChange] = []
        timeline.reserveCapacity(snapshot.priceCount)
        for entry in entries {
            for price in entry.prices {
                timeline.append(PriceChange(station: entry.id, fuel: price.fuel, price: price.price, updatedAt: price.updatedAt))
            }
        }
        timeline.sort { $0.updatedAt != $1.updatedAt ? $0.updatedAt < $1.updatedAt : ($0.station, $0.fuel) < ($1.station, $1.fuel) }
        self.timeline = timeline
    }

    public subscript(id: StationID) -> StationEntry? { snapshot[id] }

    func slots(in state: AustralianState) -> [Int] { slotsByState[state.ordinal] }
}

extension AustralianState {
    var ordinal: Int { Self.allCases.firstIndex(of: self)! }
}

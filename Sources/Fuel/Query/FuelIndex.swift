import Foundation

/// Everything derived from one snapshot that queries need, computed once when the snapshot is published:
/// the spatial grid, per-state station lists, folded brands, name order, a price timeline and averages.
/// Immutable and shared by all readers of that snapshot.
public final class FuelIndex: Sendable {
    public let snapshot: Snapshot
    public var spatial: SpatialIndex { layout.spatial }
    public let averages: Averages
    /// The day each state's current prices (and so its averages) describe (`Snapshot.dataDays`).
    public let dataDays: [AustralianState: CalendarDay]
    /// The rules that decide whether each price counts (current, plausible).
    public let judge: PriceJudge
    // The station-only facts, read from the shared layout (`StationLayout` documents each).
    var slotsByState: [[Int]] { layout.slotsByState }
    var stateOrdinals: [UInt8] { layout.stateOrdinals }
    var brandNumbers: [Int32] { layout.brandNumbers }
    var brandNumbersByKey: [String: Int32] { layout.brandNumbersByKey }
    var nameRank: [Int32] { layout.nameRank }
    var kindOrdinals: [UInt8] { layout.kindOrdinals }
    /// Per slot, whether `OpenNow` can judge its station at all (`StationLayout.tellsOpening`).
    public var tellsOpening: [Bool] { layout.tellsOpening }
    /// Whether the station at `slot` is members-only (`MembersOnly`), judged once per station layout.
    @inline(__always)
    public func isMembersOnly(_ slot: Int) -> Bool { layout.membersOnly[slot] }
    /// States none of whose stations carries any access fact (hours, 24 h, members, a closed-now observation):
    /// their providers publish none, so `open_now=true` keeps their stations as unknown rather than dropping them.
    public var statesWithoutAccessFacts: Set<AustralianState> { layout.statesWithoutAccessFacts }
    /// Price in tenths at `fuel.ordinal * stationCount + slot`, or -1 when the station lacks the fuel.
    let priceTable: [Int32]
    /// `PriceStanding` raw value at the same position as `priceTable`; 0 when the price counts.
    let standingTable: [UInt8]
    /// Per fuel, the stations whose price counts, cheapest first (`cheapestNear`), made on first use (`pricedRows`).
    let pricedPoints = PriceOrderedPoints()
    /// Every price, oldest `updatedAt` first.
    let timeline: [PriceChange]
    /// Stations by longitude strip, with their locations and cosines (`along`), built on the first route asked of
    /// this snapshot: most snapshots are replaced before anyone asks one.
    public var corridors: CorridorIndex { corridorCell.value { CorridorIndex(snapshot: snapshot) } }
    private let corridorCell = BuiltOnce<CorridorIndex>()
    /// Words of names, brands and suburbs, and postcodes (`q=`, `postcode=`), built on the first search of this
    /// snapshot (or of an earlier one with the same stations), like `corridors`.
    public var search: StationSearchIndex { layout.search.value { StationSearchIndex(snapshot: snapshot) } }
    /// The station-only part, shared with the next index while the stations stay the same.
    let layout: StationLayout
    /// `previous`, the index of the snapshot this one follows, lends its station layout when the stations are the
    /// same (a poll that changed prices only).
    public init(snapshot: Snapshot, cellDegrees: Double = SpatialIndex.defaultCellDegrees, previous: FuelIndex? = nil) {
        self.snapshot = snapshot
        let entries = snapshot.entries
        let layout: StationLayout
        if let previous, previous.layout.cellDegrees == cellDegrees, StationLayout.sameStations(previous.snapshot.entries, entries) {
            layout = previous.layout
        } else {
            layout = StationLayout(snapshot: snapshot, cellDegrees: cellDegrees)
        }
        self.layout = layout
        let judge = snapshot.judge
        self.judge = judge
        averages = snapshot.averages
        dataDays = snapshot.dataDays()

        var priceTable = [Int32](repeating: -1, count: FuelType.allCases.count * entries.count)
        var standingTable = [UInt8](repeating: 0, count: priceTable.count)
        for (slot, entry) in entries.enumerated() {
            for price in entry.prices {
                priceTable[price.fuel.ordinal * entries.count + slot] = Int32(clamping: price.price.tenths)
                standingTable[price.fuel.ordinal * entries.count + slot] = judge.standing(of: price, at: entry.station).rawValue
            }
        }
        self.priceTable = priceTable
        self.standingTable = standingTable

        var timeline: [PriceChange] = []
        timeline.reserveCapacity(snapshot.priceCount)
        for entry in entries {
            for price in entry.prices {
                timeline.append(PriceChange(station: entry.id, fuel: price.fuel, price: price.price, updatedAt: price.updatedAt, changedAt: price.changedAt))
            }
        }
        timeline.sort { $0.changedAt != $1.changedAt ? $0.changedAt < $1.changedAt : ($0.station, $0.fuel) < ($1.station, $1.fuel) }
        self.timeline = timeline
    }

    public subscript(id: StationID) -> StationEntry? { snapshot[id] }

    /// Whether `search` and `corridors` have been built (tests check they wait for their first use).
    var builtOnDemand: (search: Bool, corridors: Bool) { (layout.search.isBuilt, corridorCell.isBuilt) }

    /// Whether this index took `other`'s station layout (tests check a price-only poll keeps it).
    func sharesStationLayout(with other: FuelIndex) -> Bool { layout.search === other.layout.search }

    func slots(in state: AustralianState) -> [Int] { slotsByState[state.ordinal] }

    /// Whether the price of `fuel` at `slot` counts (empty) or why not.
    public func standing(_ fuel: FuelType, slot: Int) -> PriceStanding {
        PriceStanding(rawValue: standingTable[fuel.ordinal * snapshot.entries.count + slot])
    }

    /// `fuel`'s stations whose price counts, cheapest first (`PriceOrderedPoints`), made on the first asking.
    func pricedRows(_ fuel: FuelType) -> [PriceOrderedPoints.Row] {
        pricedPoints.rows(fuel) {
            PriceOrderedPoints.build(
                base: fuel.ordinal * snapshot.entries.count, locations: snapshot.entries.map(\.station.location),
                priceTable: priceTable, standingTable: standingTable)
        }
    }

    /// The price of `fuel` at `slot` in tenths, or nil.
    @inline(__always)
    func priceTenths(_ fuel: FuelType, slot: Int) -> Int? {
        let value = priceTable[fuel.ordinal * snapshot.entries.count + slot]
        return value < 0 ? nil : Int(value)
    }
}

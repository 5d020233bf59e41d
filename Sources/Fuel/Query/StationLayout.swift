/// What `FuelIndex` derives from the stations alone (not their prices): where they are, their states, brands, name
/// order and search words. A poll that changes prices only (most do) leaves it as it was, so the next index takes
/// the previous one's (`FuelIndex.init(snapshot:cellDegrees:previous:)`).
struct StationLayout: Sendable {
    let cellDegrees: Double
    let spatial: SpatialIndex
    /// Slots of each state's stations, by `AustralianState.allCases` position.
    let slotsByState: [[Int]]
    /// State position (`AustralianState.allCases`) per slot.
    let stateOrdinals: [UInt8]
    /// Brand number per slot; equal numbers mean equal brands after case folding.
    let brandNumbers: [Int32]
    /// Folded brand -> brand number.
    let brandNumbersByKey: [String: Int32]
    /// Position of each slot in name order.
    let nameRank: [Int32]
    /// States none of whose stations carries any access fact.
    let statesWithoutAccessFacts: Set<AustralianState>
    /// Per slot, whether its station publishes anything `OpenNow` can judge (`OpenNow.canTell`): a list judges
    /// `open_now` only for these, and reads no other station's record (a cache miss each, on every nearby list).
    let tellsOpening: [Bool]
    /// Per slot, the station's kind (`StationKind`), as its `allCases` position.
    let kindOrdinals: [UInt8]
    /// Slots of each kind's stations, by `StationKind.allCases` position, then by state (`AustralianState.allCases`),
    /// and each kind's in all states: what the plain listing pages through.
    let slotsByKindAndState: [[[Int]]]
    let slotsByKind: [[Int]]
    /// Per slot, whether the station is members-only (`MembersOnly`).
    let membersOnly: [Bool]
    /// The search words, built on the first search of any snapshot sharing this layout.
    let search = BuiltOnce<StationSearchIndex>()

    init(snapshot: Snapshot, cellDegrees: Double) {
        let entries = snapshot.entries
        self.cellDegrees = cellDegrees
        spatial = SpatialIndex(snapshot: snapshot, cellDegrees: cellDegrees)

        var byState = [[Int]](repeating: [], count: AustralianState.allCases.count)
        for (slot, entry) in entries.enumerated() { byState[entry.station.state.ordinal].append(slot) }
        slotsByState = byState

        stateOrdinals = entries.map { UInt8($0.station.state.ordinal) }

        var brandNumbersByKey: [String: Int32] = [:]
        brandNumbers = entries.map { entry in
            let key = StationQuery.fold(entry.station.brand)
            if let number = brandNumbersByKey[key] { return number }
            let number = Int32(brandNumbersByKey.count)
            brandNumbersByKey[key] = number
            return number
        }
        self.brandNumbersByKey = brandNumbersByKey

        let names = entries.map { StationQuery.fold($0.station.name) }
        let order = entries.indices.sorted { names[$0] != names[$1] ? names[$0] < names[$1] : $0 < $1 }
        var rank = [Int32](repeating: 0, count: entries.count)
        for (position, slot) in order.enumerated() { rank[slot] = Int32(position) }
        nameRank = rank

        tellsOpening = entries.map { OpenNow.canTell($0.station.access) }
        membersOnly = entries.map { $0.station.membershipRequired == true }
        let kinds = entries.map { UInt8(StationKind.allCases.firstIndex(of: $0.station.kind)!) }
        kindOrdinals = kinds
        slotsByKind = StationKind.allCases.indices.map { kind in entries.indices.filter { kinds[$0] == kind } }
        slotsByKindAndState = StationKind.allCases.indices.map { kind in byState.map { $0.filter { kinds[$0] == kind } } }

        let present = Set(entries.map(\.station.state))
        let informed = Set(entries.lazy.filter { $0.station.access.map { !$0.isEmpty } ?? false }.map(\.station.state))
        statesWithoutAccessFacts = present.subtracting(informed)
    }

    /// Whether `old` and `new` hold the same stations slot by slot (prices aside). Cheap when the merge kept the
    /// known stations: equal strings sharing storage compare without reading them.
    static func sameStations(_ old: [StationEntry], _ new: [StationEntry]) -> Bool {
        guard old.count == new.count else { return false }
        return old.withUnsafeBufferPointer { a in
            new.withUnsafeBufferPointer { b in
                a.baseAddress == b.baseAddress || a.indices.allSatisfy { a[$0].station == b[$0].station }
            }
        }
    }
}

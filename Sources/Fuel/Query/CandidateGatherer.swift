extension FuelIndex {
    /// A candidate while filtering and sorting: plain numbers only, so sorting thousands is cheap.
    struct Candidate {
        var slot: Int32
        /// Position in the requested `ids`, else the slot.
        var order: Int32
        /// A price in tenths; 0 without a fuel.
        var price: Int32
        /// 0 for the best `q` match (whole words), 1 for prefixes; 0 without `q`.
        var rank: Int32 = 0
        /// +infinity when unknown.
        var distance: Double
        /// Fill cost in cents with `query.fill`; `Int.max` when there is none.
        var cost = Int.max
    }
}

/// `FuelIndex.page`'s filters and what passes them: the candidates, how many `after` passed over (they still count in
/// `total`) and the fill reference. A value with a mutating `add` rather than a closure over local variables, which
/// checked exclusive access to each of them at run time, per candidate.
struct CandidateGatherer {
    let index: FuelIndex
    /// What `add` reads of the query, not the query: a copy of it is a dozen reference counts (its arrays and
    /// strings) bumped and dropped per request.
    let filters: Filters
    let stateOrdinal: UInt8?
    let kindOrdinal: UInt8?
    let fuelBase: Int?
    let ranksByPrice: Bool
    let wantedBrands: Set<Int32>?
    let excludedBrands: Set<Int32>
    /// `fuel=U91,E10`: a station selling any of them.
    let anyFuelBases: [Int]?
    let textMatches: SearchMatches?
    /// Whether any of brands, fuels, box, postcode, `q` or `after` is asked. The usual nearby list (a circle, maybe a
    /// state, a fuel, `open_now`, a fill plan) asks none of them: one test per candidate skips them all.
    let filtersMore: Bool

    var candidates: [FuelIndex.Candidate] = []
    var before = 0
    var fillReference: FillReference?
    var referenceDistance = Double.infinity

    init(
        index: FuelIndex, query: StationQuery, kindOrdinal: UInt8?, wantedBrands: Set<Int32>?, excludedBrands: Set<Int32>,
        textMatches: SearchMatches?
    ) {
        let stationCount = index.snapshot.entries.count
        self.index = index
        self.filters = Filters(query, snapshot: index.snapshot)
        self.stateOrdinal = query.state.map { UInt8($0.ordinal) }
        self.kindOrdinal = kindOrdinal
        self.fuelBase = query.fuel.map { $0.ordinal * stationCount }
        self.ranksByPrice = query.sort == .price || query.sort == .fillCost
        self.wantedBrands = wantedBrands
        self.excludedBrands = excludedBrands
        self.anyFuelBases = query.fuels.count > 1 ? Array(Set(query.fuels)).map { $0.ordinal * stationCount } : nil
        self.textMatches = textMatches
        self.filtersMore = wantedBrands != nil || !excludedBrands.isEmpty || query.fuels.count > 1 || query.bbox != nil
            || query.postcode != nil || textMatches != nil || query.after != nil
        // A nearby list's circle holds dozens: growing from empty would copy the list several times over.
        candidates.reserveCapacity(64)
    }
    struct Filters {
        let access: AccessFilter?
        let near: Coordinate?
        let radiusKm: Double?
        let bbox: BoundingBox?
        let postcode: String?
        /// `after`'s keyset bound as a slot (`Snapshot.firstSlot(after:)`): slots below it were on earlier pages.
        let firstSlotAfter: Int?
        let fill: FillPlan?

        init(_ query: StationQuery, snapshot: Snapshot) {
            access = query.access
            near = query.near
            radiusKm = query.radiusKm
            bbox = query.bbox
            postcode = query.postcode
            firstSlotAfter = query.after.map(snapshot.firstSlot(after:))
            fill = query.fill
        }
    }

    private func sellsAny(_ fuelBases: [Int], slot: Int) -> Bool {
        for base in fuelBases where index.priceTable[base + slot] >= 0 { return true }
        return false
    }

    /// The candidates, left here no more: the caller sorts them in place without a copy.
    mutating func takeCandidates() -> [FuelIndex.Candidate] {
        let taken = candidates
        candidates = []
        return taken
    }

    /// `matched`: how the slot matches `q`, when the candidates came from the text index itself.
    mutating func add(_ slot: Int, order: Int, distance: Double = .infinity, matched: StationSearchIndex.Match? = nil) {
        if let stateOrdinal, index.stateOrdinals[slot] != stateOrdinal { return }
        if let kindOrdinal, index.kindOrdinals[slot] != kindOrdinal { return }
        if filtersMore {
            if let wantedBrands, !wantedBrands.contains(index.brandNumbers[slot]) { return }
            if !excludedBrands.isEmpty, excludedBrands.contains(index.brandNumbers[slot]) { return }
            if let anyFuelBases, !sellsAny(anyFuelBases, slot: slot) { return }
        }
        if let access = filters.access, !index.snapshot.entries.withUnsafeBufferPointer({ access.admits($0.baseAddress! + slot, membersOnly: index.isMembersOnly(slot)) }) { return }
        var price: Int32 = 0
        if let fuelBase {
            price = index.priceTable[fuelBase + slot]
            if price < 0 { return }
            // Only current, plausible prices are ranked; the others stay visible on their station.
            if ranksByPrice, index.standingTable[fuelBase + slot] != 0 { return }
        }
        var distance = distance
        if distance == .infinity, let near = filters.near {
            let location = index.snapshot.entries[slot].station.location
            if location.isValid { distance = near.distanceKm(to: location) }
            if let radius = filters.radiusKm, !(distance <= radius) { return }
        }
        var rank: Int32 = 0
        if filtersMore {
            if let bbox = filters.bbox, !bbox.contains(index.snapshot.entries[slot].station.location) { return }
            if let postcode = filters.postcode, index.snapshot.entries[slot].station.postcode != postcode { return }
            if let textMatches {
                let match = matched ?? textMatches[slot]
                if match == .none { return }
                // Whole words first, then prefixes, then words one edit away.
                rank = Int32(StationSearchIndex.Match.whole.rawValue - match.rawValue)
            }
            if let firstAfter = filters.firstSlotAfter, slot < firstAfter {
                before += 1
                return
            }
        }
        var cost = Int.max
        if let fill = filters.fill, let fuelBase, index.standingTable[fuelBase + slot] == 0, distance.isFinite {
            cost = fill.costCents(priceTenths: Int(price), distanceKm: distance)
            if (distance, slot) < (referenceDistance, fillReference?.slot ?? .max) {
                referenceDistance = distance
                fillReference = FillReference(slot: slot, costCents: cost)
            }
        }
        candidates.append(FuelIndex.Candidate(slot: Int32(slot), order: Int32(order), price: price, rank: rank, distance: distance, cost: cost))
    }
}

extension CandidateGatherer: NearVisitor {
    func admits(_ slot: Int) -> Bool {
        if let stateOrdinal, index.stateOrdinals[slot] != stateOrdinal { return false }
        if let kindOrdinal, index.kindOrdinals[slot] != kindOrdinal { return false }
        guard let fuelBase else { return true }
        return index.priceTable[fuelBase + slot] >= 0 && (!ranksByPrice || index.standingTable[fuelBase + slot] == 0)
    }

    mutating func visit(_ hit: SpatialIndex.Hit) {
        add(hit.slot, order: hit.slot, distance: hit.distanceKm)
    }
}

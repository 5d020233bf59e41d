/// One station in a query result.
public struct StationMatch: Hashable, Sendable {
    public var entry: StationEntry
    /// km from the query's `near`, when it had one (and the station has valid coordinates).
    public var distanceKm: Double?
    /// The price of the query's fuel, when it had one.
    public var price: StationPrice?
    /// With `query.fill`: the fill cost in cents (`SlotPage.Hit.fillCostCents`).
    public var fillCostCents: Int? = nil

    public var station: Station { entry.station }
}

/// A page of query results; `total` counts all matches before paging.
public struct StationPage: Hashable, Sendable {
    public var total: Int
    public var limit: Int
    public var offset: Int
    public var matches: [StationMatch]
    /// With `query.fill`: what `saving` compares against.
    public var fillReference: FillReference? = nil
}

/// A page of query results as snapshot slots: what hot paths use, since it copies no station records.
public struct SlotPage: Hashable, Sendable {
    public struct Hit: Hashable, Sendable {
        /// Index into `snapshot.entries`.
        public var slot: Int
        public var distanceKm: Double?
        /// With `query.fill`: the fill cost in cents, for a station whose price of the fuel counts.
        public var fillCostCents: Int? = nil

        public init(slot: Int, distanceKm: Double?, fillCostCents: Int? = nil) {
            self.slot = slot
            self.distanceKm = distanceKm
            self.fillCostCents = fillCostCents
        }
    }

    public var total: Int
    public var limit: Int
    public var offset: Int
    public var hits: [Hit]
    /// Whether matches follow this page (what keyset paging's `next_after` needs).
    public var hasMore = false
    /// With `query.fill`: what `saving` compares against (nil when no match has a price that counts).
    public var fillReference: FillReference? = nil

    public init(total: Int, limit: Int, offset: Int, hits: [Hit], hasMore: Bool = false, fillReference: FillReference? = nil) {
        self.total = total
        self.limit = limit
        self.offset = offset
        self.hits = hits
        self.hasMore = hasMore
        self.fillReference = fillReference
    }
}

extension FuelIndex {
    /// A candidate while filtering and sorting: plain numbers only, so sorting thousands is cheap.
    fileprivate struct Candidate {
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

    /// Runs a query: candidates come from the narrowest index (ids, grid, box, state list), then filters,
    /// sort and page apply. Pure. Filtering reads per-slot tables (state, brand number, price per fuel),
    /// never the station records; only the returned page is materialised.
    public func stations(matching query: StationQuery) throws(QueryError) -> StationPage {
        let page = try slots(matching: query)
        let entries = snapshot.entries
        return StationPage(
            total: page.total, limit: page.limit, offset: page.offset,
            matches: page.hits.map { hit in
                let entry = entries[hit.slot]
                return StationMatch(
                    entry: entry, distanceKm: hit.distanceKm, price: query.fuel.flatMap(entry.price(of:)), fillCostCents: hit.fillCostCents)
            },
            fillReference: page.fillReference)
    }

    /// `stations(matching:)` without materialising the stations.
    public func slots(matching query: StationQuery) throws(QueryError) -> SlotPage {
        try query.validate()
        return page(query)
    }

    /// Every match, in the query's order, unpaged (what clusters summarise).
    public func allSlots(matching query: StationQuery) throws(QueryError) -> [Int] {
        var everything = query
        everything.offset = 0
        everything.limit = 1
        try everything.validate()
        everything.limit = max(1, snapshot.entries.count)
        return page(everything).hits.map(\.slot)
    }

    /// `slots(matching:)` for a validated query.
    func page(_ query: StationQuery) -> SlotPage {
        let entries = snapshot.entries
        // Brands unknown to this snapshot match nothing: asked for alone, nothing is left.
        var wantedBrands: Set<Int32>?
        if !query.brands.isEmpty {
            let numbers = Set(query.brands.compactMap { brandNumbersByKey[StationQuery.fold($0)] })
            guard !numbers.isEmpty else { return SlotPage(total: 0, limit: query.limit, offset: query.offset, hits: []) }
            wantedBrands = numbers
        }
        let excludedBrands = Set(query.excludedBrands.compactMap { brandNumbersByKey[StationQuery.fold($0)] })
        let stateOrdinal = query.state.map { UInt8($0.ordinal) }
        let fuelBase = query.fuel.map { $0.ordinal * entries.count }
        // `fuel=U91,E10`: a station selling any of them.
        let anyFuelBases = query.fuels.count > 1 ? Array(Set(query.fuels)).map { $0.ordinal * entries.count } : nil
        let ranksByPrice = query.sort == .price || query.sort == .fillCost
        let kind = query.kinds.kept(forIDs: query.ids != nil).map { UInt8(StationKind.allCases.firstIndex(of: $0)!) }

        // The plain listing (everything, or one state, in id order) needs no per-station work at all.
        if query.ids == nil, query.near == nil, query.bbox == nil, wantedBrands == nil, excludedBrands.isEmpty, query.fuels.isEmpty,
           query.sort == nil, query.access == nil, query.text.isEmpty, query.postcode == nil {
            let listed: [Int]
            if let kind {
                listed = query.state.map { layout.slotsByKindAndState[Int(kind)][$0.ordinal] } ?? layout.slotsByKind[Int(kind)]
            } else {
                listed = query.state.map { self.slots(in: $0) } ?? Array(entries.indices)
            }
            var start = min(query.offset, listed.count)
            if let after = query.after {
                let first = snapshot.firstSlot(after: after)
                start = listed.firstPosition(atLeast: first)
            }
            let hits = listed[start..<min(listed.count, start + query.limit)].map { SlotPage.Hit(slot: $0, distanceKm: nil) }
            return SlotPage(total: listed.count, limit: query.limit, offset: query.offset, hits: hits, hasMore: start + hits.count < listed.count)
        }

        let textMatches = query.text.isEmpty ? nil : search.matches(query.text)
        // The usual nearby list (a circle, maybe a state, a fuel, `open_now`, a fill plan) has none of the filters
        // `filtersMore` covers: one test per candidate skips them all.
        var gathered = CandidateGatherer(
            index: self, query: query, stateOrdinal: stateOrdinal, kindOrdinal: kind, fuelBase: fuelBase, ranksByPrice: ranksByPrice,
            wantedBrands: wantedBrands, excludedBrands: excludedBrands, anyFuelBases: anyFuelBases, textMatches: textMatches,
            filtersMore: wantedBrands != nil || !excludedBrands.isEmpty || anyFuelBases != nil || query.bbox != nil
                || query.postcode != nil || textMatches != nil || query.after != nil)

        if let ids = query.ids {
            var seen = Set<Int>()
            for id in ids {
                guard let slot = snapshot.slot(of: id), seen.insert(slot).inserted else { continue }
                gathered.add(slot, order: seen.count)
            }
        } else if let near = query.near, let radius = query.radiusKm {
            // The cheap per-slot tests run before the distance (`admits`): a station they refuse costs no trigonometry.
            spatial.forEach(near: near, radiusKm: radius, visiting: &gathered)
        } else if let bbox = query.bbox {
            for slot in spatial.within(bbox) { gathered.add(slot, order: slot) }
        } else if let postcode = query.postcode {
            for slot in search.slots(inPostcode: postcode) { gathered.add(slot, order: slot) }
        } else if let textMatches {
            // Usually a handful of stations: far fewer than a state's.
            for position in 0..<textMatches.count {
                let slot = Int(textMatches.slots[position])
                gathered.add(slot, order: slot, matched: textMatches.match(at: position))
            }
        } else if let state = query.state {
            for slot in slots(in: state) { gathered.add(slot, order: slot) }
        } else {
            for slot in entries.indices { gathered.add(slot, order: slot) }
        }

        var candidates = gathered.takeCandidates()
        // Only the first `offset + limit` in order are ever returned, so a bounded selection beats a full sort
        // for the usual "first page of many" request.
        let needed = min(candidates.count, query.offset + query.limit)
        let sort = query.sort ?? (query.near != nil ? .distance : nil)
        switch textMatches == nil ? sort : nil {
        // Without `q` every rank is 0: the usual orders leave it out of each comparison.
        case .distance: candidates.selectFirst(needed) { ($0.distance, $0.slot) < ($1.distance, $1.slot) }
        case .price: candidates.selectFirst(needed) { ($0.price, $0.distance, $0.slot) < ($1.price, $1.distance, $1.slot) }
        case .fillCost: candidates.selectFirst(needed) { ($0.cost, $0.distance, $0.slot) < ($1.cost, $1.distance, $1.slot) }
        case .name, nil: Self.rankedSelect(&candidates, needed, by: sort, names: nameRank)
        }

        let start = min(query.offset, candidates.count)
        let end = min(candidates.count, start + query.limit)
        let hits = candidates[start..<end].map { candidate in
            SlotPage.Hit(
                slot: Int(candidate.slot), distanceKm: candidate.distance.isFinite ? candidate.distance : nil,
                fillCostCents: candidate.cost == .max ? nil : candidate.cost)
        }
        return SlotPage(
            total: candidates.count + gathered.before, limit: query.limit, offset: query.offset, hits: hits, hasMore: end < candidates.count,
            fillReference: gathered.fillReference)
    }

    /// `page`'s order with `q`'s rank first (whole-word matches before prefixes), and the name and id orders.
    // Not inlined: inlined into `page`, the name order's comparison crashed the 6.3.1 optimizer (CopyPropagation).
    @inline(never)
    private static func rankedSelect(_ candidates: inout [Candidate], _ needed: Int, by sort: StationQuery.Sort?, names: [Int32]) {
        switch sort {
        case .distance:
            candidates.selectFirst(needed) { ($0.rank, $0.distance, $0.slot) < ($1.rank, $1.distance, $1.slot) }
        case .price:
            candidates.selectFirst(needed) { ($0.rank, $0.price, $0.distance, $0.slot) < ($1.rank, $1.price, $1.distance, $1.slot) }
        case .fillCost:
            candidates.selectFirst(needed) { ($0.rank, $0.cost, $0.distance, $0.slot) < ($1.rank, $1.cost, $1.distance, $1.slot) }
        case .name:
            candidates.selectFirst(needed) { ($0.rank, names[Int($0.slot)]) < ($1.rank, names[Int($1.slot)]) }
        case nil:
            // Slot order is id order; most sources already yield it.
            if !candidates.isSorted(by: { ($0.rank, $0.order) < ($1.rank, $1.order) }) {
                candidates.selectFirst(needed) { ($0.rank, $0.order) < ($1.rank, $1.order) }
            }
        }
    }

    /// The cheapest `limit` stations for `fuel`, near a point (within `radiusKm`) and/or in a state; with `fill`
    /// (needs `near`) each carries its fill cost, and `byFillCost` ranks by it instead of the pump price.
    public func cheapest(
        fuel: FuelType, near: Coordinate? = nil, radiusKm: Double? = nil, state: AustralianState? = nil,
        limit: Int = 10, offset: Int = 0, access: AccessFilter? = nil, fill: FillPlan? = nil, byFillCost: Bool = false
    ) throws(QueryError) -> StationPage {
        var query = StationQuery(
            state: state, fuel: fuel, near: near, radiusKm: radiusKm, sort: byFillCost ? .fillCost : .price, limit: limit, offset: offset)
        query.access = access
        query.fill = fill
        return try stations(matching: query)
    }
}

/// `FuelIndex.page`'s filters and what passes them: the candidates, how many `after` passed over (they still count in
/// `total`) and the fill reference. A value with a mutating `add` rather than a closure over local variables, which
/// checked exclusive access to each of them at run time, per candidate.
private struct CandidateGatherer {
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
    let anyFuelBases: [Int]?
    let textMatches: SearchMatches?
    /// Whether any of brands, fuels, box, postcode, `q` or `after` is asked.
    let filtersMore: Bool

    var candidates: [FuelIndex.Candidate] = []
    var before = 0
    var fillReference: FillReference?
    var referenceDistance = Double.infinity

    init(
        index: FuelIndex, query: StationQuery, stateOrdinal: UInt8?, kindOrdinal: UInt8?, fuelBase: Int?, ranksByPrice: Bool, wantedBrands: Set<Int32>?,
        excludedBrands: Set<Int32>, anyFuelBases: [Int]?, textMatches: SearchMatches?, filtersMore: Bool
    ) {
        self.index = index
        self.filters = Filters(query, snapshot: index.snapshot)
        self.stateOrdinal = stateOrdinal
        self.kindOrdinal = kindOrdinal
        self.fuelBase = fuelBase
        self.ranksByPrice = ranksByPrice
        self.wantedBrands = wantedBrands
        self.excludedBrands = excludedBrands
        self.anyFuelBases = anyFuelBases
        self.textMatches = textMatches
        self.filtersMore = filtersMore
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

extension Array {
    func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        var index = 1
        while index < count {
            if areInIncreasingOrder(self[index], self[index - 1]) { return false }
            index += 1
        }
        return true
    }

    /// Puts the `k` smallest elements, sorted, at the front; the order of the rest is unspecified.
    /// A full sort when `k` is a large share of the array, otherwise a bounded max-heap pass.
    mutating func selectFirst(_ k: Int, by areInIncreasingOrder: (Element, Element) -> Bool) {
        guard k > 0 else { return }
        if k * 4 >= count {
            // A nearby list is a few dozen: insertion by shifting beats the standard sort's swaps there.
            if count <= Self.shortSort { insertionSort(by: areInIncreasingOrder) } else { sort(by: areInIncreasingOrder) }
            return
        }
        // Max-heap of the k best so far, kept in self[0..<k].
        func siftDown(_ start: Int, _ end: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                if left >= end { return }
                var largest = left
                let right = left + 1
                if right < end && areInIncreasingOrder(self[left], self[right]) { largest = right }
                if !areInIncreasingOrder(self[parent], self[largest]) { return }
                swapAt(parent, largest)
                parent = largest
            }
        }
        for index in stride(from: k / 2 - 1, through: 0, by: -1) { siftDown(index, k) }
        for index in k..<count where areInIncreasingOrder(self[index], self[0]) {
            swapAt(index, 0)
            siftDown(0, k)
        }
        self[0..<k].sort(by: areInIncreasingOrder)
    }

    /// Up to this many elements, `selectFirst` sorts by insertion.
    private static var shortSort: Int { 64 }

    /// A stable insertion sort: each element's place among the sorted ones before it is found by binary search (a
    /// nearby list arrives in map order, so a linear search mispredicts at every step), then the larger ones move up
    /// one place in a single move.
    private mutating func insertionSort(by areInIncreasingOrder: (Element, Element) -> Bool) {
        withUnsafeMutableBufferPointer { elements in
            guard elements.count > 1, let base = elements.baseAddress else { return }
            for index in 1..<elements.count where areInIncreasingOrder(elements[index], elements[index - 1]) {
                // The first sorted element the new one precedes: after every equal one, so equal elements keep their order.
                var low = 0, high = index - 1
                while low < high {
                    let middle = (low + high) / 2
                    if areInIncreasingOrder(elements[index], elements[middle]) { high = middle } else { low = middle + 1 }
                }
                let element = (base + index).move()
                (base + low + 1).moveInitialize(from: base + low, count: index - low)
                (base + low).initialize(to: element)
            }
        }
    }
}

extension FuelIndex {
    /// The ids this snapshot does not hold, each once, in the order asked (favourites' `meta.missing`).
    public func unknownIDs(_ ids: [StationID]) -> [StationID] {
        var seen = Set<StationID>()
        return ids.filter { snapshot.slot(of: $0) == nil && seen.insert($0).inserted }
    }
}

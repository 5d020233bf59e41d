extension FuelIndex {
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
        // Brands unknown to this snapshot match nothing: asked for alone, nothing is left.
        var wantedBrands: Set<Int32>?
        if !query.brands.isEmpty {
            let numbers = brandNumbers(query.brands)
            guard !numbers.isEmpty else { return SlotPage(total: 0, limit: query.limit, offset: query.offset, hits: []) }
            wantedBrands = numbers
        }
        let excludedBrands = brandNumbers(query.excludedBrands)
        let kind = query.kinds.kept(forIDs: query.ids != nil).map { UInt8(StationKind.allCases.firstIndex(of: $0)!) }
        if wantedBrands == nil, excludedBrands.isEmpty, Self.isPlainListing(query) {
            return plainListing(query, kind: kind)
        }
        var gathered = CandidateGatherer(
            index: self, query: query, kindOrdinal: kind, wantedBrands: wantedBrands, excludedBrands: excludedBrands,
            textMatches: query.text.isEmpty ? nil : search.matches(query.text))
        gather(query, into: &gathered)
        return orderedPage(of: &gathered, query)
    }

    /// This snapshot's numbers for the brands named (`StationLayout.brandNumbersByKey`); unknown brands have none.
    private func brandNumbers(_ brands: [String]) -> Set<Int32> {
        Set(brands.compactMap { brandNumbersByKey[StationQuery.fold($0)] })
    }

    /// Whether the query lists everything, or one state or kind, in id order, with no filter (besides brands, which
    /// `page` checks) that needs per-station work: `plainListing` answers it from the layout's lists alone.
    private static func isPlainListing(_ query: StationQuery) -> Bool {
        query.ids == nil && query.near == nil && query.bbox == nil && query.fuels.isEmpty && query.sort == nil
            && query.access == nil && query.text.isEmpty && query.postcode == nil
    }

    private func plainListing(_ query: StationQuery, kind: UInt8?) -> SlotPage {
        let listed: [Int]
        if let kind {
            listed = query.state.map { layout.slotsByKindAndState[Int(kind)][$0.ordinal] } ?? layout.slotsByKind[Int(kind)]
        } else {
            listed = query.state.map { self.slots(in: $0) } ?? Array(snapshot.entries.indices)
        }
        var start = min(query.offset, listed.count)
        if let after = query.after {
            start = listed.firstPosition(atLeast: snapshot.firstSlot(after: after))
        }
        let hits = listed[start..<min(listed.count, start + query.limit)].map { SlotPage.Hit(slot: $0, distanceKm: nil) }
        return SlotPage(total: listed.count, limit: query.limit, offset: query.offset, hits: hits, hasMore: start + hits.count < listed.count)
    }

    /// Feeds `gathered` from the narrowest source the query allows.
    private func gather(_ query: StationQuery, into gathered: inout CandidateGatherer) {
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
        } else if let textMatches = gathered.textMatches {
            // Usually a handful of stations: far fewer than a state's.
            for position in 0..<textMatches.count {
                let slot = Int(textMatches.slots[position])
                gathered.add(slot, order: slot, matched: textMatches.match(at: position))
            }
        } else if let state = query.state {
            for slot in slots(in: state) { gathered.add(slot, order: slot) }
        } else {
            for slot in snapshot.entries.indices { gathered.add(slot, order: slot) }
        }
    }

    /// The gathered candidates in the query's order, cut to its page.
    private func orderedPage(of gathered: inout CandidateGatherer, _ query: StationQuery) -> SlotPage {
        var candidates = gathered.takeCandidates()
        // Only the first `offset + limit` in order are ever returned, so a bounded selection beats a full sort
        // for the usual "first page of many" request.
        let needed = min(candidates.count, query.offset + query.limit)
        let sort = query.sort ?? (query.near != nil ? .distance : nil)
        switch gathered.textMatches == nil ? sort : nil {
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

    /// `orderedPage`'s order with `q`'s rank first (whole-word matches before prefixes), and the name and id orders.
    // Not inlined: inlined into its caller, the name order's comparison crashed the 6.3.1 optimizer (CopyPropagation).
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

extension FuelIndex {
    /// The ids this snapshot does not hold, each once, in the order asked (favourites' `meta.missing`).
    public func unknownIDs(_ ids: [StationID]) -> [StationID] {
        var seen = Set<StationID>()
        return ids.filter { snapshot.slot(of: $0) == nil && seen.insert($0).inserted }
    }
}

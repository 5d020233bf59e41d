extension FuelIndex {
    /// `page(_:)` for the usual nearby list (a circle, optionally one state, one fuel, `open_now` and a fill plan,
    /// by distance, price or fill cost); nil for any other query. Same page, same `total`, same fill reference: it
    /// only skips the general path's per-candidate tests of filters a nearby list cannot have, and ranks small
    /// plain candidates.
    func nearPage(_ query: StationQuery) -> SlotPage? {
        guard let near = query.near, let radius = query.radiusKm, query.ids == nil, query.bbox == nil, query.brands.isEmpty,
              query.excludedBrands.isEmpty, query.fuels.count <= 1, query.text.isEmpty, query.postcode == nil, query.after == nil
        else { return nil }
        let sort = query.sort ?? .distance
        guard sort != .name else { return nil }
        let entries = snapshot.entries
        let stateOrdinal = query.state.map { UInt8($0.ordinal) }
        let fuelBase = query.fuel.map { $0.ordinal * entries.count }
        let ranksByPrice = sort == .price || sort == .fillCost
        let access = query.access
        let fill = query.fill
        var fillReference: FillReference?
        var referenceDistance = Double.infinity
        var candidates: [NearCandidate] = []
        candidates.reserveCapacity(64)

        spatial.forEach(near: near, radiusKm: radius, where: { slot in
            if let stateOrdinal, stateOrdinals[slot] != stateOrdinal { return false }
            guard let fuelBase else { return true }
            return priceTable[fuelBase + slot] >= 0 && (!ranksByPrice || standingTable[fuelBase + slot] == 0)
        }) { hit in
            let slot = hit.slot
            if let access, !access.admits(entries[slot].station) { return }
            var price: Int32 = 0
            var cost = Int.max
            if let fuelBase {
                price = priceTable[fuelBase + slot]
                if let fill, standingTable[fuelBase + slot] == 0 {
                    cost = fill.costCents(priceTenths: Int(price), distanceKm: hit.distanceKm)
                    if (hit.distanceKm, slot) < (referenceDistance, fillReference?.slot ?? .max) {
                        referenceDistance = hit.distanceKm
                        fillReference = FillReference(slot: slot, costCents: cost)
                    }
                }
            }
            candidates.append(NearCandidate(slot: Int32(slot), price: price, distance: hit.distanceKm, cost: cost))
        }

        let needed = min(candidates.count, query.offset + query.limit)
        switch sort {
        case .price: candidates.selectFirst(needed) { ($0.price, $0.distance, $0.slot) < ($1.price, $1.distance, $1.slot) }
        case .fillCost: candidates.selectFirst(needed) { ($0.cost, $0.distance, $0.slot) < ($1.cost, $1.distance, $1.slot) }
        case .distance, .name: candidates.selectFirst(needed) { ($0.distance, $0.slot) < ($1.distance, $1.slot) }
        }
        let start = min(query.offset, candidates.count)
        let end = min(candidates.count, start + query.limit)
        var hits: [SlotPage.Hit] = []
        hits.reserveCapacity(end - start)
        for candidate in candidates[start..<end] {
            hits.append(SlotPage.Hit(
                slot: Int(candidate.slot), distanceKm: candidate.distance, fillCostCents: candidate.cost == .max ? nil : candidate.cost))
        }
        return SlotPage(
            total: candidates.count, limit: query.limit, offset: query.offset, hits: hits, hasMore: end < candidates.count,
            fillReference: fillReference)
    }
}

/// A station inside a nearby list's circle while it is ranked: plain numbers, 24 bytes.
private struct NearCandidate {
    var slot: Int32
    var price: Int32
    var distance: Double
    /// Fill cost in cents; `Int.max` when there is none.
    var cost: Int
}

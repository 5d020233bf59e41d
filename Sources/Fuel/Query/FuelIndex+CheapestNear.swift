extension FuelIndex {
    /// The first `limit` matches of `cheapest(fuel:near:radiusKm:limit:access:)`, found without visiting them all:
    /// the stations within `radiusKm` of `point` whose price of `fuel` counts and that `access` admits, cheapest
    /// first (then nearer, then by slot). No total is counted, so a station priced above the `limit`-th best so far
    /// is refused before its distance is computed, and only the stations that would enter the page are judged
    /// open. Empty for an invalid point, radius or limit (which `cheapest` refuses).
    public func cheapestNear(
        fuel: FuelType, point: Coordinate, radiusKm: Double, limit: Int, access: AccessFilter? = nil
    ) -> [StationMatch] {
        guard point.isValid, radiusKm.isFinite, radiusKm > 0, (1...StationQuery.maximumLimit).contains(limit) else { return [] }
        let entries = snapshot.entries
        let fuelBase = fuel.ordinal * entries.count
        var best = TopPrices(limit: limit)
        spatial.forEach(near: point, radiusKm: radiusKm, where: { slot in
            let price = priceTable[fuelBase + slot]
            return price >= 0 && standingTable[fuelBase + slot] == 0 && best.mightTake(price: price)
        }) { hit in
            let candidate = TopPrices.Candidate(price: priceTable[fuelBase + hit.slot], distance: hit.distanceKm, slot: hit.slot)
            guard best.wouldTake(candidate) else { return }
            if let access, !access.admits(entries[hit.slot].station) { return }
            best.insert(candidate)
        }
        return best.candidates.map { candidate in
            let entry = entries[candidate.slot]
            return StationMatch(entry: entry, distanceKm: candidate.distance, price: entry.price(of: fuel))
        }
    }
}

/// The `limit` smallest candidates seen so far by (price, distance, slot), kept sorted: a page of a few needs no heap.
struct TopPrices {
    struct Candidate {
        var price: Int32
        var distance: Double
        var slot: Int

        static func < (lhs: Self, rhs: Self) -> Bool {
            (lhs.price, lhs.distance, lhs.slot) < (rhs.price, rhs.distance, rhs.slot)
        }
    }

    let limit: Int
    private(set) var candidates: [Candidate] = []

    init(limit: Int) {
        self.limit = limit
        candidates.reserveCapacity(limit + 1)
    }

    /// Whether a candidate at `price` could still enter (a full page refuses a dearer one whatever its distance).
    func mightTake(price: Int32) -> Bool {
        candidates.count < limit || price <= candidates[candidates.count - 1].price
    }

    func wouldTake(_ candidate: Candidate) -> Bool {
        candidates.count < limit || candidate < candidates[candidates.count - 1]
    }

    mutating func insert(_ candidate: Candidate) {
        var position = candidates.count
        while position > 0, candidate < candidates[position - 1] { position -= 1 }
        candidates.insert(candidate, at: position)
        if candidates.count > limit { candidates.removeLast() }
    }
}

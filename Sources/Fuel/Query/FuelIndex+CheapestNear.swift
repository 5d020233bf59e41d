extension FuelIndex {
    /// The first `limit` matches of `cheapest(fuel:near:radiusKm:limit:access:)`, found without visiting them all:
    /// the stations within `radiusKm` of `point` whose price of `fuel` counts and that `access` admits, cheapest
    /// first (then nearer, then by slot). No total is counted, so the stations are read cheapest first and the
    /// search ends at the first price dearer than a full page's last; only stations that would enter the page are
    /// measured exactly and judged open. Empty for an invalid point, radius or limit (which `cheapest` refuses).
    public func cheapestNear(
        fuel: FuelType, point: Coordinate, radiusKm: Double, limit: Int, access: AccessFilter? = nil
    ) -> [StationMatch] {
        cheapestNear(fuel: fuel, point: point, radiusKm: radiusKm, limit: limit, access: access, walkBudget: Self.priceWalkBudget)
    }

    /// How many rows of the price order a search reads before it turns to the spatial index instead: a point far
    /// from most stations selling the fuel (the outback, another state's city) would otherwise read them all.
    static let priceWalkBudget = 1_024

    /// `cheapestNear` as slots and distances: no station record is copied (a summary writes three from the snapshot).
    public func cheapestNearHits(
        fuel: FuelType, point: Coordinate, radiusKm: Double, limit: Int, access: AccessFilter? = nil
    ) -> [SpatialIndex.Hit] {
        cheapestNearHits(fuel: fuel, point: point, radiusKm: radiusKm, limit: limit, access: access, walkBudget: Self.priceWalkBudget)
    }

    /// `walkBudget`: rows of the price order read before the spatial scan takes over (tests force either way).
    func cheapestNear(
        fuel: FuelType, point: Coordinate, radiusKm: Double, limit: Int, access: AccessFilter?, walkBudget: Int
    ) -> [StationMatch] {
        let entries = snapshot.entries
        return cheapestNearHits(fuel: fuel, point: point, radiusKm: radiusKm, limit: limit, access: access, walkBudget: walkBudget).map { hit in
            let entry = entries[hit.slot]
            return StationMatch(entry: entry, distanceKm: hit.distanceKm, price: entry.price(of: fuel))
        }
    }

    func cheapestNearHits(
        fuel: FuelType, point: Coordinate, radiusKm: Double, limit: Int, access: AccessFilter?, walkBudget: Int
    ) -> [SpatialIndex.Hit] {
        guard point.isValid, radiusKm.isFinite, radiusKm > 0, (1...StationQuery.maximumLimit).contains(limit) else { return [] }
        var best = TopPrices(limit: limit)
        if !walkByPrice(fuel: fuel, point: point, radiusKm: radiusKm, access: access, budget: walkBudget, into: &best) {
            best = TopPrices(limit: limit)
            scanByDistance(fuel: fuel, point: point, radiusKm: radiusKm, access: access, into: &best)
        }
        return best.candidates.map { SpatialIndex.Hit(slot: $0.slot, distanceKm: $0.distance) }
    }

    /// Reads the stations selling `fuel` cheapest first until no dearer one can enter `best`; false when it gave up
    /// after `budget` rows. Distances are `Coordinate.distanceKm(to:)`'s, to the bit, like the spatial index's.
    private func walkByPrice(
        fuel: FuelType, point: Coordinate, radiusKm: Double, access: AccessFilter?, budget: Int, into best: inout TopPrices
    ) -> Bool {
        let entries = snapshot.entries
        let center = UnitVector(point)
        let minimumDot = UnitVector.minimumDot(withinKm: radiusKm)
        let cosLatitude = point.cosLatitude
        let rows = pricedRows(fuel)
        // Read through buffers: an array's element reached through its subscript is copied whole (a station's
        // strings retained and released) for each row read.
        return entries.withUnsafeBufferPointer { entries in rows.withUnsafeBufferPointer { rows in
            for (read, row) in rows.enumerated() {
                guard best.mightTake(price: row.price) else { return true }
                guard read < budget else { return false }
                guard center.dot(row.vector) >= minimumDot else { continue }
                let slot = Int(row.slot)
                let location = entries[slot].station.location
                let distance = point.distanceKm(to: location, cosLatitude: cosLatitude, otherCosLatitude: location.cosLatitude)
                guard distance <= radiusKm else { continue }
                let candidate = TopPrices.Candidate(price: row.price, distance: distance, slot: slot)
                guard best.wouldTake(candidate) else { continue }
                if let access, !access.admits(entries.baseAddress! + slot, membersOnly: isMembersOnly(slot)) { continue }
                best.insert(candidate)
            }
            return true
        } }
    }

    /// The stations within the circle, nearest strips first: what a point far from the fuel's stations reads.
    private func scanByDistance(fuel: FuelType, point: Coordinate, radiusKm: Double, access: AccessFilter?, into best: inout TopPrices) {
        let entries = snapshot.entries
        let fuelBase = fuel.ordinal * entries.count
        spatial.forEach(near: point, radiusKm: radiusKm, where: { slot in
            let price = priceTable[fuelBase + slot]
            return price >= 0 && standingTable[fuelBase + slot] == 0 && best.mightTake(price: price)
        }) { hit in
            let candidate = TopPrices.Candidate(price: priceTable[fuelBase + hit.slot], distance: hit.distanceKm, slot: hit.slot)
            guard best.wouldTake(candidate) else { return }
            if let access, !entries.withUnsafeBufferPointer({ access.admits($0.baseAddress! + hit.slot, membersOnly: isMembersOnly(hit.slot)) }) { return }
            best.insert(candidate)
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

extension FuelIndex {
    /// Every station within `detourKm` of `route`, by slot. Candidates come from the corridor index, one box per
    /// run of neighbouring legs (`CorridorRuns`), never a scan of every station: a station within reach of the
    /// route lies in the box of the leg nearest it, so that leg is measured; its offset and along distance are the
    /// nearest leg's (the earlier one on a tie, so a route passing twice reports the first pass).
    public func corridor(_ route: RoutePath, detourKm: Double) -> [AlongHit] {
        var hits = corridorHits(route, detourKm: detourKm, in: corridors, budget: .unlimited) { _ in true } ?? []
        hits.sort { $0.slot < $1.slot }
        return hits
    }

    /// `corridor` of the stations of `candidates` that `admits` lets through (asked once per station, before it is
    /// measured), in no particular order; nil once the search has spent more than `budget`.
    func corridorHits(
        _ route: RoutePath, detourKm: Double, in candidates: CorridorIndex, budget: CorridorWork, admits: (Int) -> Bool
    ) -> [AlongHit]? {
        let runs = CorridorRuns(route: route, detourKm: detourKm)
        // Per slot: its position in `hits`, or one of these.
        let unseen: Int32 = -1, refused: Int32 = -2, admitted: Int32 = -3
        var position = [Int32](repeating: unseen, count: snapshot.entries.count)
        var hits: [AlongHit] = []
        hits.reserveCapacity(64)
        var hints = CorridorIndex.StripHints()
        var spent = CorridorWork()
        // The arrays read per candidate and leg are read in place: through the structs each access is a bounds
        // check and often a retain.
        let finished = position.withUnsafeMutableBufferPointer { position in
        route.withLegMeasure { measure in
            for run in runs.runs {
                let shift = run.longitudeShift
                let scan = candidates.forEach(in: run.box, hints: &hints) { slot, location, cosLatitude in
                    var known = position[slot]
                    if known == refused { return }
                    if known == unseen {
                        known = admits(slot) ? admitted : refused
                        position[slot] = known
                        if known == refused { return }
                    }
                    // Nearer than the nearest leg of an earlier run, or within `detourKm` (its edge included).
                    let limit = known >= 0 ? hits[Int(known)].detourKm : detourKm.nextUp
                    let framed = Coordinate(latitude: location.latitude, longitude: location.longitude + shift)
                    guard let (nearest, nearestAlong) = measure.nearest(
                        to: framed, xScale: RoutePath.kmPerDegree * cosLatitude, among: run.legs, nearerThan: limit)
                    else { return }
                    if known < 0 {
                        position[slot] = Int32(hits.count)
                        hits.append(AlongHit(slot: slot, alongKm: nearestAlong, detourKm: nearest))
                    } else {
                        hits[Int(known)].alongKm = nearestAlong
                        hits[Int(known)].detourKm = nearest
                    }
                }
                spent.add(scan, legs: run.legs.count)
                if spent.exceeds(budget) { return false }
            }
            return true
        }
        }
        return finished ? hits : nil
    }

    /// `corridor` filtered, ordered and paged as `query` asks.
    public func along(_ query: AlongQuery) throws(AlongQueryError) -> AlongPage {
        try query.validate()
        let entries = snapshot.entries
        let fuelBase = query.fuel.map { $0.ordinal * entries.count }
        let countedOnly = query.sort == .price
        // Stations without the fuel (or, ranked by price, whose price does not count) are never visited.
        var candidates = corridors
        if let fuel = query.fuel, let fuelBase {
            candidates = candidates.subset(fuel.ordinal * 2 + (countedOnly ? 1 : 0)) { slot in
                priceTable[fuelBase + slot] >= 0 && (!countedOnly || standingTable[fuelBase + slot] == 0)
            }
        }
        let fuelKind = UInt8(StationKind.allCases.firstIndex(of: .fuel)!)
        let found = corridorHits(query.route, detourKm: query.detourKm, in: candidates, budget: .perRequest) { slot in
            // A route search is for a fill: EV charging sites are left out, as every list leaves them out by default.
            guard layout.kindOrdinals[slot] == fuelKind else { return false }
            guard let access = query.access else { return true }
            return entries.withUnsafeBufferPointer { access.admits($0.baseAddress! + slot, membersOnly: isMembersOnly(slot)) }
        }
        guard let hits = found else { throw .routeTooComplex }
        var matches = hits.map { hit in (hit: hit, price: fuelBase.map { Int(priceTable[$0 + hit.slot]) } ?? 0) }
        let needed = min(matches.count, query.offset + query.limit)
        switch query.sort {
        case .alongKm:
            matches.selectFirst(needed) { ($0.hit.alongKm, $0.hit.detourKm, $0.hit.slot) < ($1.hit.alongKm, $1.hit.detourKm, $1.hit.slot) }
        case .price:
            matches.selectFirst(needed) { ($0.price, $0.hit.alongKm, $0.hit.slot) < ($1.price, $1.hit.alongKm, $1.hit.slot) }
        }
        let start = min(query.offset, matches.count)
        let end = min(matches.count, start + query.limit)
        return AlongPage(total: matches.count, limit: query.limit, offset: query.offset, hits: matches[start..<end].map(\.hit))
    }
}

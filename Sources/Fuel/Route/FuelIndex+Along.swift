extension FuelIndex {
    /// Every station within `detourKm` of `route`, by slot. Candidates come from the corridor index, one corridor
    /// box per leg, never a scan of every station: a station within reach of the route lies in the box of the
    /// leg nearest it, so that leg is measured; its offset and along distance are the nearest leg's (the earlier
    /// one on a tie, so a route passing twice reports the first pass).
    public func corridor(_ route: RoutePath, detourKm: Double) -> [AlongHit] {
        // Per slot, its position in `hits` (-1: no leg within reach yet), where the nearest leg so far is kept.
        var position = [Int32](repeating: -1, count: snapshot.entries.count)
        var hits: [AlongHit] = []
        for segment in 0..<route.segmentCount {
            guard let box = route.corridorBox(ofSegment: segment, detourKm: detourKm) else { continue }
            corridors.forEach(in: box) { slot, location, cosLatitude in
                let (off, along) = route.offset(of: location, cosLatitude: cosLatitude, fromSegment: segment)
                guard off <= detourKm else { return }
                let known = Int(position[slot])
                if known < 0 {
                    position[slot] = Int32(hits.count)
                    hits.append(AlongHit(slot: slot, alongKm: along, detourKm: off))
                } else if off < hits[known].detourKm {
                    hits[known].alongKm = along
                    hits[known].detourKm = off
                }
            }
        }
        hits.sort { $0.slot < $1.slot }
        return hits
    }

    /// `corridor` filtered, ordered and paged as `query` asks.
    public func along(_ query: AlongQuery) throws(AlongQueryError) -> AlongPage {
        try query.validate()
        let entries = snapshot.entries
        let fuelBase = query.fuel.map { $0.ordinal * entries.count }
        var matches: [(hit: AlongHit, price: Int)] = []
        for hit in corridor(query.route, detourKm: query.detourKm) {
            var price = 0
            if let fuelBase {
                price = Int(priceTable[fuelBase + hit.slot])
                if price < 0 { continue }
                if query.sort == .price, standingTable[fuelBase + hit.slot] != 0 { continue }
            }
            if let access = query.access, !access.admits(entries[hit.slot].station) { continue }
            matches.append((hit, price))
        }
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

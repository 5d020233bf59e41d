extension FuelIndex {
    /// Every station within `detourKm` of `route`, by slot. Candidates come from the corridor index's strips, only
    /// the bands the route's corridor crosses (`CorridorStrips`), never a scan of every station; each hit's offset
    /// and along distance are the nearest leg's (the earlier one on a tie, so a route passing twice reports the
    /// first pass).
    public func corridor(_ route: RoutePath, detourKm: Double) -> [AlongHit] {
        var hits = corridorHits(route, detourKm: detourKm) { _ in true }
        hits.sort { $0.slot < $1.slot }
        return hits
    }

    /// `corridor` of the stations `admits` lets through (asked once per station, before it is measured), in no
    /// particular order. Each station in the route's strip bands (`CorridorStrips`) is visited once and measured
    /// against its band's legs: a station within reach of a leg lies in a band that leg made.
    func corridorHits(_ route: RoutePath, detourKm: Double, admits: (Int) -> Bool) -> [AlongHit] {
        let strips = CorridorStrips(route: route, detourKm: detourKm, grid: corridors.grid)
        let legBounds = strips.legBounds
        let bandLegs = strips.bandLegs
        var hits: [AlongHit] = []
        for band in strips.bands {
            let legs = bandLegs[band.legs]
            corridors.forEach(inStrip: band.strip, minLat: band.minLat, maxLat: band.maxLat) { slot, location, cosLatitude in
                guard admits(slot) else { return }
                let xScale = RoutePath.kmPerDegree * cosLatitude
                var bestLeg = -1, bestOff = 0.0, bestAlong = 0.0
                for leg in legs {
                    // A leg is measured only if it could be within `detourKm` and no further than the nearest so
                    // far; 1 µm of slack is far beyond the rounding of either distance.
                    let reach = (bestLeg >= 0 ? bestOff : detourKm) + 1e-9
                    let bound = legBounds[leg].distanceSquaredKm(latitude: location.latitude, longitude: location.longitude, xScale: xScale)
                    guard bound <= reach * reach else { continue }
                    let (off, along) = route.offset(of: location, cosLatitude: cosLatitude, fromSegment: leg)
                    guard off <= detourKm else { continue }
                    // The nearest leg, the earlier on a tie, whatever order the band lists them in.
                    if bestLeg < 0 || off < bestOff || (off == bestOff && leg < bestLeg) {
                        bestLeg = leg
                        bestOff = off
                        bestAlong = along
                    }
                }
                if bestLeg >= 0 { hits.append(AlongHit(slot: slot, alongKm: bestAlong, detourKm: bestOff)) }
            }
        }
        return hits
    }

    /// `corridor` filtered, ordered and paged as `query` asks.
    public func along(_ query: AlongQuery) throws(AlongQueryError) -> AlongPage {
        try query.validate()
        let entries = snapshot.entries
        let fuelBase = query.fuel.map { $0.ordinal * entries.count }
        let countedOnly = query.sort == .price
        // Stations without the fuel (or, ranked by price, whose price does not count) are never measured.
        let hits = corridorHits(query.route, detourKm: query.detourKm) { slot in
            if let fuelBase {
                if priceTable[fuelBase + slot] < 0 { return false }
                if countedOnly && standingTable[fuelBase + slot] != 0 { return false }
            }
            if let access = query.access, !access.admits(entries[slot].station) { return false }
            return true
        }
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

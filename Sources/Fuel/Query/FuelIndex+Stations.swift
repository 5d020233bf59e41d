/// One station in a query result.
public struct StationMatch: Hashable, Sendable {
    public var entry: StationEntry
    /// km from the query's `near`, when it had one.
    public var distanceKm: Double?
    /// The price of the query's fuel, when it had one.
    public var price: StationPrice?

    public var station: Station { entry.station }
}

/// A page of query results; `total` counts all matches before paging.
public struct StationPage: Hashable, Sendable {
    public var total: Int
    public var limit: Int
    public var offset: Int
    public var matches: [StationMatch]
}

extension FuelIndex {
    /// Runs a query: candidates come from the narrowest index (ids, grid, state list), then filters,
    /// sort and page apply. Pure; cost follows the candidate count, not the station count.
    public func stations(matching query: StationQuery) throws(QueryError) -> StationPage {
        try query.validate()
        let entries = snapshot.entries
        let brand = query.brand.map(StationQuery.fold)

        struct Candidate {
            var slot: Int
            var distance: Double?
            var order: Int
        }
        var candidates: [Candidate] = []

        if let ids = query.ids {
            var seen = Set<Int>()
            for id in ids {
                guard let slot = snapshot.slot(of: id), seen.insert(slot).inserted else { continue }
                candidates.append(Candidate(slot: slot, distance: nil, order: candidates.count))
            }
        } else if let near = query.near, let radius = query.radiusKm {
            candidates = spatial.near(near, radiusKm: radius).map { Candidate(slot: $0.slot, distance: $0.distanceKm, order: $0.slot) }
        } else if let bbox = query.bbox {
            candidates = spatial.within(bbox).map { Candidate(slot: $0, distance: nil, order: $0) }
        } else if let state = query.state {
            candidates = slots(in: state).map { Candidate(slot: $0, distance: nil, order: $0) }
        } else {
            candidates = entries.indices.map { Candidate(slot: $0, distance: nil, order: $0) }
        }

        var matches: [(candidate: Candidate, price: StationPrice?)] = []
        matches.reserveCapacity(candidates.count)
        for var candidate in candidates {
            let entry = entries[candidate.slot]
            let station = entry.station
            if let state = query.state, station.state != state { continue }
            if let brand, brandKeys[candidate.slot] != brand { continue }
            if let bbox = query.bbox, !bbox.contains(station.location) { continue }
            var price: StationPrice?
            if let fuel = query.fuel {
                guard let found = entry.price(of: fuel) else { continue }
                price = found
            }
            if let near = query.near {
                // A station with broken coordinates has no distance: it sorts last and fails any radius.
                let distance = candidate.distance ?? (station.location.isValid ? near.distanceKm(to: station.location) : nil)
                if let radius = query.radiusKm, !(distance.map { $0 <= radius } ?? false) { continue }
                candidate.distance = distance
            }
            matches.append((candidate, price))
        }

        let sort = query.sort ?? (query.near != nil ? .distance : nil)
        switch sort {
        case .distance:
            matches.sort {
                ($0.candidate.distance ?? .infinity, $0.candidate.slot) < ($1.candidate.distance ?? .infinity, $1.candidate.slot)
            }
        case .price:
            matches.sort { lhs, rhs in
                let left = lhs.price!.price.tenths, right = rhs.price!.price.tenths
                if left != right { return left < right }
                let leftDistance = lhs.candidate.distance ?? .infinity
                let rightDistance = rhs.candidate.distance ?? .infinity
                if leftDistance != rightDistance { return leftDistance < rightDistance }
                return lhs.candidate.slot < rhs.candidate.slot
            }
        case .name:
            matches.sort { nameRank[$0.candidate.slot] < nameRank[$1.candidate.slot] }
        case nil:
            matches.sort { $0.candidate.order < $1.candidate.order }
        }

        let start = min(query.offset, matches.count)
        let end = min(matches.count, start + query.limit)
        let page = matches[start..<end].map {
            StationMatch(entry: entries[$0.candidate.slot], distanceKm: $0.candidate.distance, price: $0.price)
        }
        return StationPage(total: matches.count, limit: query.limit, offset: query.offset, matches: page)
    }

    /// The cheapest `limit` stations for `fuel`, near a point (within `radiusKm`) and/or in a state.
    public func cheapest(
        fuel: FuelType, near: Coordinate? = nil, radiusKm: Double? = nil, state: AustralianState? = nil,
        limit: Int = 10
    ) throws(QueryError) -> StationPage {
        try stations(
            matching: StationQuery(state: state, fuel: fuel, near: near, radiusKm: radiusKm, sort: .price, limit: limit))
    }
}

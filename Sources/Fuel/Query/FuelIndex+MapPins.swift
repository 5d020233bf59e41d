/// `compact=true` pins: a plain page, or an even spread when more stations match than `limit` (`CheapestPerCell`).
public struct MapPinPage: Hashable, Sendable {
    public var page: SlotPage
    /// The grid cell of a spread; nil for a plain page.
    public var cellDegrees: Double?
    public var isSampled: Bool { cellDegrees != nil }
}

extension FuelIndex {
    /// With `spread` (the client asked for no order and no page: no `sort`, `ids`, `offset` or `after`), more matches
    /// than `query.limit` give one pin per occupied grid cell, the cheapest by the pin's price (the lowest current,
    /// plausible price among `query.fuels`), in the query's order; `total` still counts every match and there is no
    /// next page. Otherwise, or when everything fits, the page `slots(matching:)` gives.
    public func mapPins(matching query: StationQuery, spread: Bool) throws(QueryError) -> MapPinPage {
        try query.validate()
        guard spread, query.offset == 0, query.after == nil, query.ids == nil else { return MapPinPage(page: page(query), cellDegrees: nil) }
        var everything = query
        everything.limit = max(1, snapshot.entries.count)
        let all = page(everything)
        guard all.hits.count > query.limit else { return MapPinPage(page: page(query), cellDegrees: nil) }
        let entries = snapshot.entries
        let pins = all.hits.map { hit in
            CheapestPerCell.Pin(id: entries[hit.slot].id, location: entries[hit.slot].station.location, tenths: pinTenths(slot: hit.slot, fuels: query.fuels))
        }
        let selection = CheapestPerCell.select(pins, limit: query.limit)
        let hits = selection.kept.map { all.hits[$0] }
        return MapPinPage(page: SlotPage(total: all.total, limit: query.limit, offset: 0, hits: hits, hasMore: false), cellDegrees: selection.cellDegrees)
    }

    /// The lowest current, plausible price among `fuels` at `slot`, in tenths.
    func pinTenths(slot: Int, fuels: [FuelType]) -> Int? {
        let count = snapshot.entries.count
        var best: Int?
        for fuel in fuels {
            let index = fuel.ordinal * count + slot
            guard priceTable[index] >= 0, standingTable[index] == 0 else { continue }
            best = min(best ?? Int.max, Int(priceTable[index]))
        }
        return best
    }
}

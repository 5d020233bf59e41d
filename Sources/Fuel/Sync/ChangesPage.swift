/// One page of the change feed for a client: at most `limit` events after `start` (optionally one state's, one
/// fuel's), with the price items of a station the page also replaces whole left out (removals stay: they are small), since the station item
/// carries every current price (at the WA rollover a page would otherwise hold each station twice).
/// `last` is where the next page starts, whether or not the last event was left out.
public struct ChangesPage: Sendable {
    public let items: [ChangeEvent]
    public let hasMore: Bool
    public let last: ChangeCursor?

    /// `stations`: only these stations' changes (favourites); nil: every station's.
    public init(
        feed: ChangeFeed, start: ChangeCursor?, state: AustralianState?, fuel: FuelType?, stations: Set<StationID>? = nil, limit: Int
    ) {
        var taken: [ChangeEvent] = []
        var more = false
        for event in start.map({ feed.events(after: $0) }) ?? feed.events[...] {
            if let state, event.state != state { continue }
            if let fuel, let eventFuel = event.fuel, eventFuel != fuel { continue }
            if let stations, !stations.contains(event.station) { continue }
            if taken.count == limit { more = true; break }
            taken.append(event)
        }
        var replaced = Set<StationID>()
        for event in taken { if case .station = event.kind { replaced.insert(event.station) } }
        items = replaced.isEmpty ? taken : taken.filter { event in
            switch event.kind {
            case .price: !replaced.contains(event.station)
            case .priceRemoved, .station, .stationRemoved: true
            }
        }
        hasMore = more
        last = taken.last.map(ChangeCursor.init(after:))
    }
}

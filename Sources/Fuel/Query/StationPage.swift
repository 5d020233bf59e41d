/// One station in a query result.
public struct StationMatch: Hashable, Sendable {
    public var entry: StationEntry
    /// km from the query's `near`, when it had one (and the station has valid coordinates).
    public var distanceKm: Double?
    /// The price of the query's fuel, when it had one.
    public var price: StationPrice?
    /// With `query.fill`: the fill cost in cents (`SlotPage.Hit.fillCostCents`).
    public var fillCostCents: Int? = nil

    public var station: Station { entry.station }
}

/// A page of query results; `total` counts all matches before paging.
public struct StationPage: Hashable, Sendable {
    public var total: Int
    public var limit: Int
    public var offset: Int
    public var matches: [StationMatch]
    /// With `query.fill`: what `saving` compares against.
    public var fillReference: FillReference? = nil
}

/// A page of query results as snapshot slots: what hot paths use, since it copies no station records.
public struct SlotPage: Hashable, Sendable {
    public struct Hit: Hashable, Sendable {
        /// Index into `snapshot.entries`.
        public var slot: Int
        public var distanceKm: Double?
        /// With `query.fill`: the fill cost in cents, for a station whose price of the fuel counts.
        public var fillCostCents: Int? = nil

        public init(slot: Int, distanceKm: Double?, fillCostCents: Int? = nil) {
            self.slot = slot
            self.distanceKm = distanceKm
            self.fillCostCents = fillCostCents
        }
    }

    public var total: Int
    public var limit: Int
    public var offset: Int
    public var hits: [Hit]
    /// Whether matches follow this page (what keyset paging's `next_after` needs).
    public var hasMore = false
    /// With `query.fill`: what `saving` compares against (nil when no match has a price that counts).
    public var fillReference: FillReference? = nil

    public init(total: Int, limit: Int, offset: Int, hits: [Hit], hasMore: Bool = false, fillReference: FillReference? = nil) {
        self.total = total
        self.limit = limit
        self.offset = offset
        self.hits = hits
        self.hasMore = hasMore
        self.fillReference = fillReference
    }
}

/// `GET /v1/stations/along`: stations within `detourKm` of a route, with how far along it each one is.
public struct AlongQuery: Hashable, Sendable {
    public enum Sort: String, Codable, Sendable, CaseIterable {
        /// In the order the route passes them (the default).
        case alongKm = "along_km"
        /// Cheapest first (needs `fuel`; only current, plausible prices are ranked), then along the route.
        case price
    }

    public var route: RoutePath
    /// How far from the route (straight-line km to its nearest point) a station may be.
    public var detourKm: Double
    /// Keeps stations selling this fuel.
    public var fuel: FuelType?
    public var sort: Sort
    public var access: AccessFilter?
    public var limit: Int
    public var offset: Int

    public static let defaultDetourKm = 2.0
    public static let detourRange = 0.1...20.0
    public static let maximumPoints = 2_000
    public static let maximumLengthKm = 1_500.0

    public init(
        route: RoutePath, detourKm: Double = AlongQuery.defaultDetourKm, fuel: FuelType? = nil, sort: Sort = .alongKm,
        limit: Int = StationQuery.defaultLimit, offset: Int = 0
    ) {
        self.route = route
        self.detourKm = detourKm
        self.fuel = fuel
        self.sort = sort
        self.access = nil
        self.limit = limit
        self.offset = offset
    }

    public func validate() throws(AlongQueryError) {
        guard detourKm.isFinite, Self.detourRange.contains(detourKm) else { throw .invalidDetour }
        if sort == .price && fuel == nil { throw .priceSortNeedsFuel }
        guard (1...StationQuery.maximumLimit).contains(limit) else { throw .invalidLimit }
        guard offset >= 0 else { throw .invalidOffset }
    }
}

public enum AlongQueryError: Error, Hashable, Sendable, CustomStringConvertible {
    case invalidDetour
    case priceSortNeedsFuel
    case invalidLimit
    case invalidOffset
    /// The corridor search ran past its work budget (`CorridorWork.perRequest`).
    case routeTooComplex

    public var description: String {
        switch self {
        case .invalidDetour: "detour_km must be a number from 0.1 to 20"
        case .priceSortNeedsFuel: "sort=price needs fuel, e.g. fuel=U91"
        case .invalidLimit: "limit must be within 1...\(StationQuery.maximumLimit)"
        case .invalidOffset: "offset must not be negative"
        case .routeTooComplex:
            "polyline is too complex to search: it doubles back over the same ground too often for its detour_km. "
                + "Simplify it: fewer points (Douglas-Peucker with a 10-50 m tolerance keeps a driven route's shape), "
                + "shorter legs only where the road turns, no repeated passes, or a smaller detour_km"
        }
    }
}

/// One station near the route.
public struct AlongHit: Hashable, Sendable {
    /// Index into `snapshot.entries`.
    public var slot: Int
    /// km from the route's start to the route's point nearest the station.
    public var alongKm: Double
    /// Straight-line km from that point to the station (one way: the extra driving is about twice this).
    public var detourKm: Double
}

public struct AlongPage: Hashable, Sendable {
    public var total: Int
    public var limit: Int
    public var offset: Int
    public var hits: [AlongHit]
}

import Foundation

/// Filters, order and page for `GET /v1/stations`. All filters combine (AND).
public struct StationQuery: Hashable, Sendable {
    public enum Sort: String, Codable, Sendable, CaseIterable {
        case distance, price, name
        /// Cheapest to fill once the drive is counted (`FillPlan`); needs `fill`.
        case fillCost = "fill_cost"
    }

    public var state: AustralianState?
    /// Keeps only stations selling any of these fuels (`fuel=U91,E10`); empty: no fuel filter.
    public var fuels: [FuelType]
    /// Keeps only these brands (exact, compared case-insensitively: "shell" matches "Shell"); empty: any brand.
    public var brands: [String]
    /// Leaves out these brands (same matching as `brands`).
    public var excludedBrands: [String]
    /// Open now, not closed, no members-only stations; nil: no such filter.
    public var access: AccessFilter?
    /// Origin for distances; every match then carries its distance.
    public var near: Coordinate?
    /// With `near`, keeps stations within this many km. Without it, `near` only annotates distances.
    public var radiusKm: Double?
    public var bbox: BoundingBox?
    /// Only these stations (favourites). Unknown ids are skipped. Without a sort they keep this order.
    public var ids: [StationID]?
    /// nil: by distance when `near` is given, else in `ids` order, else by id.
    public var sort: Sort?
    public var limit: Int
    public var offset: Int
    /// Keyset paging: only stations with a greater id (the previous page's last, `meta.next_after`). Ids only
    /// grow, so a station removed or added between pages shifts nothing; needs the id order (no `sort`, `near`, `ids`).
    public var after: StationID?
    /// `q=`: words (`SearchText.words`) that must each start a word of the name, brand or suburb; matches of whole
    /// words rank first, then the requested order. Empty: no text filter.
    public var text: [String] = []
    /// `postcode=`: exact.
    public var postcode: String?
    /// Which kinds of station (fuel, EV charging) are kept: by default fuel stations, except for favourites by `ids`,
    /// which keep every kind (`KindFilter`).
    public var kinds: KindFilter = .usual
    /// With `near` and one fuel: each counted price also gets a fill cost and a saving against the nearest
    /// (`FillPlan`). nil: no fill costs.
    public var fill: FillPlan?

    public static let defaultLimit = 50
    public static let maximumLimit = 500
    /// `radius_km` when a point is given without one, and its upper bound.
    public static let defaultRadiusKm = 5.0
    public static let maximumRadiusKm = 50.0

    public init(
        state: AustralianState? = nil, fuel: FuelType? = nil, brand: String? = nil, near: Coordinate? = nil,
        radiusKm: Double? = nil, bbox: BoundingBox? = nil, ids: [StationID]? = nil, sort: Sort? = nil,
        limit: Int = StationQuery.defaultLimit, offset: Int = 0
    ) {
        self.state = state
        self.fuels = fuel.map { [$0] } ?? []
        self.brands = brand.map { [$0] } ?? []
        self.excludedBrands = []
        self.access = nil
        self.near = near
        self.radiusKm = radiusKm
        self.bbox = bbox
        self.ids = ids
        self.sort = sort
        self.limit = limit
        self.offset = offset
    }

    /// The one fuel asked for, when exactly one was: what `sort = .price` ranks and compact lists show.
    public var fuel: FuelType? {
        get { fuels.count == 1 ? fuels[0] : nil }
        set { fuels = newValue.map { [$0] } ?? [] }
    }

    /// The one brand asked for, when exactly one was.
    public var brand: String? {
        get { brands.count == 1 ? brands[0] : nil }
        set { brands = newValue.map { [$0] } ?? [] }
    }

    /// Checks the combination; the App turns each error into a 400.
    public func validate() throws(QueryError) {
        if sort == .price && fuels.count > 1 && Set(fuels).count > 1 { throw .priceSortNeedsOneFuel }
        if sort == .price && fuels.isEmpty { throw .priceSortNeedsFuel }
        if sort == .distance && near == nil { throw .distanceSortNeedsNear }
        if let near, !near.isValid { throw .invalidCoordinate }
        if let radiusKm {
            guard near != nil else { throw .radiusNeedsNear }
            guard radiusKm.isFinite, radiusKm > 0 else { throw .invalidRadius }
        }
        if let fill {
            guard near != nil, fuel != nil else { throw .fillNeedsNearAndFuel }
            guard fill.isValid else { throw .invalidFill }
        }
        if sort == .fillCost && fill == nil { throw .fillCostSortNeedsNearAndFuel }
        guard (1...Self.maximumLimit).contains(limit) else { throw .invalidLimit }
        guard offset >= 0 else { throw .invalidOffset }
        if after != nil {
            guard isIDOrder else { throw .afterNeedsIDOrder }
            guard offset == 0 else { throw .afterWithOffset }
        }
    }

    /// Whether results come in id order, the order `after` pages through.
    public var isIDOrder: Bool { sort == nil && near == nil && ids == nil && text.isEmpty }

    /// Case folding for brand and name comparison.
    /// Case-insensitive, space-trimmed form for brand and name matching. Runs for every station on every
    /// snapshot, so ASCII takes a fast path without Foundation.
    static func fold(_ text: String) -> String {
        var utf8 = Array(text.utf8)
        var start = 0, end = utf8.count
        while start < end, utf8[start] == 0x20 || utf8[start] == 0x09 { start += 1 }
        while end > start, utf8[end - 1] == 0x20 || utf8[end - 1] == 0x09 { end -= 1 }
        guard utf8[start..<end].allSatisfy({ $0 < 0x80 }) else {
            return String(decoding: utf8[start..<end], as: UTF8.self).lowercased()
        }
        for i in start..<end where utf8[i] >= 0x41 && utf8[i] <= 0x5A { utf8[i] |= 0x20 }
        return String(decoding: utf8[start..<end], as: UTF8.self)
    }
}

/// Why a query cannot run.
public enum QueryError: Error, Hashable, Sendable, CustomStringConvertible {
    case priceSortNeedsFuel
    case priceSortNeedsOneFuel
    case distanceSortNeedsNear
    case radiusNeedsNear
    case invalidCoordinate
    case invalidRadius
    case invalidLimit
    case invalidOffset
    case afterNeedsIDOrder
    case afterWithOffset
    case fillNeedsNearAndFuel
    case invalidFill
    case fillCostSortNeedsNearAndFuel

    public var description: String {
        switch self {
        case .priceSortNeedsFuel: "sort=price needs fuel, e.g. fuel=U91"
        case .priceSortNeedsOneFuel: "sort=price ranks one fuel; give fuel a single code, e.g. fuel=U91"
        case .distanceSortNeedsNear: "sort=distance needs near=lat,lng"
        case .radiusNeedsNear: "radius_km needs near=lat,lng"
        case .invalidCoordinate: "near must be a valid lat,lng"
        case .invalidRadius: "radius_km must be a positive number"
        case .invalidLimit: "limit must be within 1...\(StationQuery.maximumLimit)"
        case .invalidOffset: "offset must not be negative"
        case .afterNeedsIDOrder: "after pages through the id order: it cannot be combined with sort, near, ids or q"
        case .afterWithOffset: "after replaces offset: give one or the other"
        case .fillNeedsNearAndFuel: "litres and l_per_100km need near=lat,lng and a single fuel, e.g. fuel=U91"
        case .invalidFill:
            "litres must be within \(FillPlan.litresRange) and l_per_100km within \(FillPlan.litresPer100KmRange)"
        case .fillCostSortNeedsNearAndFuel: "sort=fill_cost needs near=lat,lng and a single fuel, e.g. fuel=U91"
        }
    }
}

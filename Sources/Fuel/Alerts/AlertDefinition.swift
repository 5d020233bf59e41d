/// What a motorist asked to be told about: a kind, a fuel, where, the figure that matters and when to deliver.
public struct AlertDefinition: Sendable, Equatable {
    public enum Kind: String, Sendable, CaseIterable {
        case priceBelow = "price_below"
        case priceDrop = "price_drop"
        case priceRise = "price_rise"
        case cheapestChanged = "cheapest_changed"
        case waTomorrow = "wa_tomorrow"
    }

    public enum Target: Sendable, Equatable {
        /// 1 to 20 favourite stations.
        case stations([StationID])
        /// Stations within `radiusKm` (at most 25) of a point.
        case near(Coordinate, radiusKm: Double)
    }

    public enum Delivery: Sendable, Equatable {
        case immediate
        /// One summary a day at this local time in the device's zone.
        case daily(at: TimeOfDay)
    }

    public var kind: Kind
    public var fuel: FuelType
    public var target: Target
    /// `price_below`: at or below this.
    public var threshold: PriceTenths?
    /// `price_drop`, `price_rise`, `cheapest_changed`: a move of at least this (1.0 c/L or more).
    public var change: PriceTenths?
    public var delivery: Delivery
    public var quietHours: QuietHours?

    public init(
        kind: Kind, fuel: FuelType, target: Target, threshold: PriceTenths? = nil, change: PriceTenths? = nil,
        delivery: Delivery = .immediate, quietHours: QuietHours? = nil
    ) {
        self.kind = kind
        self.fuel = fuel
        self.target = target
        self.threshold = threshold
        self.change = change
        self.delivery = delivery
        self.quietHours = quietHours
    }

    public static let maxStations = 20
    public static let maxRadiusKm = 25.0
    public static let minChange = PriceTenths(tenths: 10)
    public static let maxPerDevice = 50
}

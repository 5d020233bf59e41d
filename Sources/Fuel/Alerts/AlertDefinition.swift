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

/// A wall-clock time of day, "07:30": minutes since local midnight.
public struct TimeOfDay: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var minutes: Int

    public init?(hour: Int, minute: Int) {
        guard (0..<24).contains(hour), (0..<60).contains(minute) else { return nil }
        self.minutes = hour * 60 + minute
    }

    /// Exactly "HH:MM", 00:00 to 23:59.
    public init?(_ text: String) {
        let utf8 = Array(text.utf8)
        guard utf8.count == 5, utf8[2] == UInt8(ascii: ":"),
              let hour = Int(String(decoding: utf8[0..<2], as: UTF8.self)), let minute = Int(String(decoding: utf8[3..<5], as: UTF8.self)),
              utf8.enumerated().allSatisfy({ $0.offset == 2 || ($0.element >= 48 && $0.element <= 57) }) else { return nil }
        self.init(hour: hour, minute: minute)
    }

    public init?(minutes: Int) {
        guard (0..<1440).contains(minutes) else { return nil }
        self.minutes = minutes
    }

    public var hour: Int { minutes / 60 }
    public var minute: Int { minutes % 60 }

    public var description: String {
        (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.minutes < rhs.minutes }
}

/// Local hours in which nothing is pushed; `from` after `to` spans midnight ("22:00" to "07:00").
public struct QuietHours: Sendable, Equatable {
    public var from: TimeOfDay
    public var to: TimeOfDay

    public init(from: TimeOfDay, to: TimeOfDay) {
        self.from = from
        self.to = to
    }
}

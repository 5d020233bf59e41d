import Foundation

/// A station as a provider describes it, already adapted to domain units.
public struct StationRecord: Hashable, Codable, Sendable {
    public var key: StationKey
    public var name: String
    public var brand: String
    public var address: String
    public var suburb: String
    public var state: AustralianState
    public var postcode: String?
    public var location: Coordinate
    /// Opening hours and access flags, where the provider publishes them.
    public var access: StationAccess?
    /// Kind (fuel or EV) and what else it sells, where the provider publishes it; nil: a fuel station, nothing more known.
    public var facts: StationFacts?

    public init(
        key: StationKey, name: String, brand: String, address: String, suburb: String,
        state: AustralianState, postcode: String?, location: Coordinate, access: StationAccess? = nil, facts: StationFacts? = nil
    ) {
        self.key = key
        self.name = name
        self.brand = brand
        self.address = address
        self.suburb = suburb
        self.state = state
        self.postcode = postcode
        self.location = location
        self.access = access
        self.facts = facts.flatMap { $0.isEmpty ? nil : $0 }
    }
}

/// One fuel's price at one station, as observed at a provider.
public struct PriceRecord: Hashable, Codable, Sendable {
    public var station: StationKey
    public var fuel: FuelType
    public var price: PriceTenths
    /// When the retailer set this price (UTC instant).
    public var updatedAt: Date

    public init(station: StationKey, fuel: FuelType, price: PriceTenths, updatedAt: Date) {
        self.station = station
        self.fuel = fuel
        self.price = price
        self.updatedAt = updatedAt
    }
}

/// Tomorrow's published price (WA), which never feeds averages or trends.
public struct TomorrowPriceRecord: Hashable, Codable, Sendable {
    public var station: StationKey
    public var fuel: FuelType
    public var price: PriceTenths
    /// The local calendar day (in the station's state) the price applies to, as `yyyy-MM-dd`.
    public var day: String

    public init(station: StationKey, fuel: FuelType, price: PriceTenths, day: String) {
        self.station = station
        self.fuel = fuel
        self.price = price
        self.day = day
    }
}

/// What one adapter made of one provider payload (or a set of payloads polled together).
public struct ProviderUpdate: Sendable {
    public var provider: ProviderID
    public var stations: [StationRecord]
    public var prices: [PriceRecord]
    public var tomorrow: [TomorrowPriceRecord]
    /// The instant the data describes (the newest price, or the fetch time).
    public var asOf: Date
    /// True when this payload is a delta (`/prices/new`): stations and prices absent from it are unchanged.
    public var isDelta: Bool
    /// The trading day a day-dated feed says its prices are for (WA FuelWatch's `date`); nil for feeds that
    /// carry no such date. A full update dated before the trading day in force is stale and never merged.
    public var tradingDay: CalendarDay?
    /// The day the payload's prices describe when the adapter knows better than `asOf` (VIC: the day before the
    /// capture, `HistoryDay.described`); trend points are labelled with it. nil: the day of `asOf`.
    public var describedDay: CalendarDay?

    public init(
        provider: ProviderID, stations: [StationRecord], prices: [PriceRecord],
        tomorrow: [TomorrowPriceRecord] = [], asOf: Date, isDelta: Bool = false, tradingDay: CalendarDay? = nil,
        describedDay: CalendarDay? = nil
    ) {
        self.describedDay = describedDay
        self.provider = provider
        self.stations = stations
        self.prices = prices
        self.tomorrow = tomorrow
        self.asOf = asOf
        self.isDelta = isDelta
        self.tradingDay = tradingDay
    }
}

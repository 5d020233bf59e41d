import Foundation

/// One fuel's current price at a station, with tomorrow's price where one is published (WA).
public struct StationPrice: Hashable, Codable, Sendable {
    public var fuel: FuelType
    public var price: PriceTenths
    /// When the retailer set this price (UTC instant).
    public var updatedAt: Date
    public var tomorrow: TomorrowPrice?
    /// When this store first saw this price (the merge instant). Incremental sync pages on it, because a
    /// provider may deliver a price long after its `updatedAt` (VIC publishes a day late).
    public var seenAt: Date?

    public init(fuel: FuelType, price: PriceTenths, updatedAt: Date, tomorrow: TomorrowPrice? = nil, seenAt: Date? = nil) {
        self.fuel = fuel
        self.price = price
        self.updatedAt = updatedAt
        self.tomorrow = tomorrow
        self.seenAt = seenAt
    }

    /// The instant `changes(since:)` orders by.
    public var changedAt: Date { seenAt ?? updatedAt }
}

/// A published price for a coming trading day. It never feeds averages or trends.
public struct TomorrowPrice: Hashable, Codable, Sendable {
    public var price: PriceTenths
    /// The trading day it applies to, `yyyy-MM-dd` in the station's state.
    public var day: String

    public init(price: PriceTenths, day: String) {
        self.price = price
        self.day = day
    }
}

/// A station with its current prices, as a snapshot holds it. Prices are sorted by fuel, one per fuel.
public struct StationEntry: Hashable, Codable, Sendable {
    public var station: Station
    public var prices: [StationPrice]
    /// Next-day prices for fuels with no current price here (a WA site closed today publishes tomorrow's),
    /// sorted by fuel. At the 06:00 rollover they become current prices.
    public var tomorrowOnly: [TomorrowOnlyPrice]

    public init(station: Station, prices: [StationPrice], tomorrowOnly: [TomorrowOnlyPrice] = []) {
        self.station = station
        self.prices = prices.sorted { $0.fuel.ordinal < $1.fuel.ordinal }
        self.tomorrowOnly = tomorrowOnly.sorted { $0.fuel.ordinal < $1.fuel.ordinal }
    }

    public var id: StationID { station.id }

    /// The price of one fuel, or nil when the station does not sell it (a scan over at most a dozen fuels).
    public func price(of fuel: FuelType) -> StationPrice? {
        for price in prices where price.fuel == fuel { return price }
        return nil
    }

    /// The next-day price of `fuel`, whether or not the station has a current price for it.
    public func tomorrow(of fuel: FuelType) -> TomorrowPrice? {
        if let price = price(of: fuel) { return price.tomorrow }
        for only in tomorrowOnly where only.fuel == fuel { return only.tomorrow }
        return nil
    }

    private enum CodingKeys: String, CodingKey { case station, prices, tomorrowOnly }

    // Entries saved before `tomorrowOnly` existed have no such key.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(
            station: try container.decode(Station.self, forKey: .station),
            prices: try container.decode([StationPrice].self, forKey: .prices),
            tomorrowOnly: try container.decodeIfPresent([TomorrowOnlyPrice].self, forKey: .tomorrowOnly) ?? [])
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(station, forKey: .station)
        try container.encode(prices, forKey: .prices)
        if !tomorrowOnly.isEmpty { try container.encode(tomorrowOnly, forKey: .tomorrowOnly) }
    }
}

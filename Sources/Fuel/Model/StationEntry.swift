/// A station with its current prices, as a snapshot holds it. Prices are sorted by fuel, one per fuel.
public struct StationEntry: Hashable, Codable, Sendable {
    public var station: Station
    public var prices: [StationPrice]

    public init(station: Station, prices: [StationPrice]) {
        self.station = station
        self.prices = prices.sorted { $0.fuel.ordinal < $1.fuel.ordinal }
    }

    public var id: StationID { station.id }

    /// The price of one fuel, or nil when the station does not sell it (a scan over at most a dozen fuels).
    public func price(of fuel: FuelType) -> StationPrice? {
        for price in prices where price.fuel == fuel { return price }
        return nil
    }
}

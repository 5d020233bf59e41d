/// Today's price picture for one fuel in one state.
public struct FuelAverage: Hashable, Codable, Sendable {
    public var state: AustralianState
    public var fuel: FuelType
    /// Mean price in cents per litre, unrounded (e.g. 189.4371).
    public var average: Double
    public var min: PriceTenths
    public var max: PriceTenths
    public var stationCount: Int

    public init(
        state: AustralianState, fuel: FuelType, average: Double, min: PriceTenths, max: PriceTenths, stationCount: Int
    ) {
        self.state = state
        self.fuel = fuel
        self.average = average
        self.min = min
        self.max = max
        self.stationCount = stationCount
    }

    /// The mean rounded to a tenth of a cent, for display.
    public var averagePrice: PriceTenths { PriceTenths(cents: average) }
}

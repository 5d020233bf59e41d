/// Today's price picture for one fuel in one state, or in one region of it.
public struct FuelAverage: Hashable, Codable, Sendable {
    public var state: AustralianState
    public var fuel: FuelType
    /// nil for the whole state; `metro` or `regional` for a state published per region (WA).
    public var region: PriceRegion?
    /// Mean price in cents per litre, unrounded (e.g. 189.4371).
    public var average: Double
    /// Median price in cents per litre (the mean of the two middle prices for an even count).
    public var median: Double
    public var min: PriceTenths
    public var max: PriceTenths
    public var stationCount: Int

    public init(
        state: AustralianState, fuel: FuelType, region: PriceRegion? = nil, average: Double, median: Double,
        min: PriceTenths, max: PriceTenths, stationCount: Int
    ) {
        self.state = state
        self.fuel = fuel
        self.region = region
        self.average = average
        self.median = median
        self.min = min
        self.max = max
        self.stationCount = stationCount
    }

    /// The mean rounded to a tenth of a cent, for display.
    public var averagePrice: PriceTenths { PriceTenths(cents: average) }
}

/// One day of one fuel in one state: the day's average, min, max and station count.
/// Recomputed with every merge during the day, so the last merge of the day wins.
public struct DailyPoint: Hashable, Codable, Sendable {
    /// `yyyy-MM-dd` in the state's local calendar (`AustralianState.timeZone`).
    public var day: String
    /// Mean price in cents per litre, unrounded.
    public var average: Double
    public var min: PriceTenths
    public var max: PriceTenths
    public var stationCount: Int

    public init(day: String, average: Double, min: PriceTenths, max: PriceTenths, stationCount: Int) {
        self.day = day
        self.average = average
        self.min = min
        self.max = max
        self.stationCount = stationCount
    }

    public init(day: CalendarDay, average: FuelAverage) {
        self.init(
            day: day.description, average: average.average, min: average.min, max: average.max,
            stationCount: average.stationCount)
    }
}

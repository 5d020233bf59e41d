import Fuel

/// One row of `GET /v1/averages`.
struct AverageDTO: Codable, Sendable {
    var state: String
    /// Absent for the state row; `metro` or `regional` for a region row (WA).
    var region: String?
    var fuel: String
    var fuelName: String
    /// The local day the prices averaged describe (`Snapshot.dataDays`), the day the state's trend ends on.
    var date: String?
    var average: Rounded
    var median: Rounded
    var min: CentsValue
    var max: CentsValue
    var stationCount: Int
    /// Only prices set within this many days count (`PricePolicy.currentWithinDays`).
    var currentWithinDays: Int

    init(_ average: FuelAverage, date: CalendarDay?) {
        self.date = date?.description
        state = average.state.rawValue
        region = average.region?.rawValue
        fuel = average.fuel.rawValue
        fuelName = average.fuel.displayName
        self.average = Rounded(average.average)
        median = Rounded(average.median)
        min = CentsValue(average.min)
        max = CentsValue(average.max)
        stationCount = average.stationCount
        currentWithinDays = PricePolicy.currentWithinDays
    }
}

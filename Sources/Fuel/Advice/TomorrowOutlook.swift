/// Perth's published next-day prices for one fuel, over the metro stations that have both today's and
/// tomorrow's price, with the board's verdict counts.
public struct TomorrowOutlook: Hashable, Sendable {
    /// The trading day the tomorrow prices are for (`yyyy-MM-dd`).
    public var tradingDay: String
    public var todayAverage: Double
    public var tomorrowAverage: Double
    public var stationCount: Int
    public var todayCheaper: Int
    public var tomorrowCheaper: Int
    public var same: Int

    /// From a published board (`TomorrowBoard`); nil when it is not published or holds no Perth metro station.
    public init?(board: TomorrowBoard, fuel: FuelType, snapshot: Snapshot) {
        guard board.isPublished else { return nil }
        let perth = board.comparisons.filter { comparison in
            comparison.fuel == fuel && snapshot[comparison.station].map { MetroArea.of($0.station) == .perth } == true
        }
        self.init(comparisons: perth, tradingDay: board.tradingDay)
    }

    /// Over `comparisons` (one fuel's, of the stations concerned); nil when there are none.
    public init?(comparisons: [TomorrowComparison], tradingDay: String) {
        var today = 0
        var tomorrow = 0
        var counts: [TomorrowVerdict: Int] = [:]
        var count = 0
        // A station without a price today (`noPriceToday`) has nothing to compare.
        for comparison in comparisons {
            guard let todayPrice = comparison.today else { continue }
            today += todayPrice.tenths
            tomorrow += comparison.tomorrow.tenths
            counts[comparison.verdict, default: 0] += 1
            count += 1
        }
        guard count > 0 else { return nil }
        self.tradingDay = tradingDay
        todayAverage = Double(today) / Double(count) / 10
        tomorrowAverage = Double(tomorrow) / Double(count) / 10
        stationCount = count
        todayCheaper = counts[.todayCheaper] ?? 0
        tomorrowCheaper = counts[.tomorrowCheaper] ?? 0
        same = counts[.same] ?? 0
    }

    /// `tomorrow_cheaper` or `today_cheaper` when the averages differ by more than 0.1 c; nil when they do not
    /// (the cycle then decides).
    public var verdict: CycleAdvice.Verdict? {
        let difference = tomorrowAverage - todayAverage
        guard abs(difference) > Double(PricePolicy.sameWithinTenths) / 10 + 1e-9 else { return nil }
        return difference < 0 ? .tomorrowCheaper : .todayCheaper
    }
}

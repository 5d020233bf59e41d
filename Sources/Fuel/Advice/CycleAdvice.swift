import Foundation

/// "Fill up now or wait?" for a cycling city and fuel, from its daily metro averages and, in Perth once
/// tomorrow's prices are out, from those.
public struct CycleAdvice: Hashable, Sendable {
    public enum Verdict: String, Sendable, CaseIterable {
        // Raw values are the API's wire names.
        case fillUpNow = "fill_up_now"
        case wait
        case noCycle = "no_cycle"
        case notEnoughHistory = "not_enough_history"
        case tomorrowCheaper = "tomorrow_cheaper"
        case todayCheaper = "today_cheaper"
    }

    public var city: MetroArea
    public var fuel: FuelType
    public var verdict: Verdict
    /// One sentence saying why.
    public var reason: String
    /// nil without any point.
    public var reading: CycleReading?
    /// Perth, once tomorrow's prices are published.
    public var tomorrow: TomorrowOutlook?

    /// Fewer days than this cannot place today in a cycle.
    public static let minimumHistoryDays = 7
    /// A window whose daily averages span less than this is not cycling (averaging noise is ~1 c).
    public static let minimumRangeCents = 4.0
    /// A newest point older than this (by the state's clock) is too old to advise on.
    public static let staleAfterDays = 3

    /// The position thresholds, tuned by the backtest (`Run backtest`) on the first half of the recorded days.
    public struct Rule: Hashable, Sendable, CustomStringConvertible {
        /// At or below this position: near the trough, the next rise is due.
        public var fillAtOrBelow: Double
        /// Rising and below this position: the rise has begun and has further to go.
        public var fillWhileRisingBelow: Double

        public init(fillAtOrBelow: Double, fillWhileRisingBelow: Double) {
            self.fillAtOrBelow = fillAtOrBelow
            self.fillWhileRisingBelow = fillWhileRisingBelow
        }

        public static let standard = Rule(fillAtOrBelow: 0.25, fillWhileRisingBelow: 0.5)

        public var description: String { "fill at position <= \(fillAtOrBelow), or rising below \(fillWhileRisingBelow)" }
    }

    /// The advice over `points` (the city's daily averages for `fuel`, oldest first) on `today` (the state's
    /// day by its own data clock), with Perth's tomorrow outlook where published.
    public init(
        city: MetroArea, fuel: FuelType, points: [DailyPoint], today: CalendarDay, tomorrow: TomorrowOutlook? = nil,
        rule: Rule = .standard
    ) {
        self.city = city
        self.fuel = fuel
        self.tomorrow = tomorrow
        let reading = CycleReading(points: points)
        self.reading = reading
        let place = "\(city.name) \(fuel.rawValue)"
        if let tomorrow, let verdict = tomorrow.verdict {
            self.verdict = verdict
            let movement = verdict == .tomorrowCheaper ? "falls" : "rises"
            self.reason = "Tomorrow's prices are published: the \(place) average \(movement) from "
                + "\(Self.cents(tomorrow.todayAverage)) to \(Self.cents(tomorrow.tomorrowAverage)) c/L at 6 am "
                + "across \(tomorrow.stationCount) stations."
            return
        }
        guard let reading else {
            (verdict, reason) = (.notEnoughHistory, "No daily \(place) averages have been recorded yet.")
            return
        }
        let age = today.days(since: reading.through)
        if age > Self.staleAfterDays {
            (verdict, reason) = (.notEnoughHistory, "The newest \(place) average is from \(reading.through), \(age) days old.")
        } else if reading.historyDays < Self.minimumHistoryDays {
            (verdict, reason) = (
                .notEnoughHistory,
                "Only \(reading.historyDays) of the \(Self.minimumHistoryDays) days needed to place \(place) in its cycle.")
        } else if reading.cycle.high - reading.cycle.low < Self.minimumRangeCents {
            (verdict, reason) = (
                .noCycle,
                "The \(place) average moved only \(Self.cents(reading.cycle.high - reading.cycle.low)) c/L in "
                    + "\(reading.historyDays) days, so there is no cycle to time.")
        } else {
            (verdict, reason) = Self.decide(reading, place: place, rule: rule)
        }
    }

    static func decide(_ reading: CycleReading, place: String, rule: Rule) -> (Verdict, String) {
        let cycle = reading.cycle
        let percent = Int((cycle.position * 100).rounded())
        if cycle.position <= rule.fillAtOrBelow {
            return (.fillUpNow, "The \(place) average is near its \(reading.historyDays)-day low (\(percent)% of the way to the high), where the next rise usually starts.")
        }
        if cycle.direction == .rising && cycle.position < rule.fillWhileRisingBelow {
            return (.fillUpNow, "The \(place) average has started rising from its low (\(percent)% of the way to the high); it is likely to rise further.")
        }
        let trend = cycle.direction == .rising ? "still rising" : cycle.direction == .falling ? "falling" : "steady"
        return (.wait, "The \(place) average is \(percent)% of the way from its \(reading.historyDays)-day low to its high and \(trend); prices usually fall from here.")
    }

    static func cents(_ value: Double) -> String {
        String(format: "%.1f", value)
    }
}

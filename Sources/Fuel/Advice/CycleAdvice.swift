import Foundation

/// "Fill up now or wait?" for a cycling city and fuel, from its daily metro averages and, in Perth once
/// tomorrow's prices are out, from those. The cycle rule is a claim about the future: it is served only where it
/// beat the naive baselines on held-out days (`gated(by:)`), else the verdict is `no_reliable_signal`.
public struct CycleAdvice: Hashable, Sendable {
    public enum Verdict: String, Sendable, CaseIterable {
        // Raw values are the API's wire names.
        case fillUpNow = "fill_up_now"
        case wait
        case noCycle = "no_cycle"
        case notEnoughHistory = "not_enough_history"
        case tomorrowCheaper = "tomorrow_cheaper"
        case todayCheaper = "today_cheaper"
        case noReliableSignal = "no_reliable_signal"
    }

    public var city: MetroArea
    public var fuel: FuelType
    public var verdict: Verdict
    /// Says why, from what the data shows, with the date of the data.
    public var reason: String
    /// nil without any point.
    public var reading: CycleReading?
    /// Perth, once tomorrow's prices are published.
    public var tomorrow: TomorrowOutlook?
    /// How the cycle rule did against the naive baselines on this series' held-out days (`gated(by:)`).
    public var skill: AdviceSkill?

    /// Fewer days than this cannot place today in a cycle.
    public static let minimumHistoryDays = 7
    /// A window whose daily averages span less than this is not cycling (averaging noise is ~1 c).
    public static let minimumRangeCents = 4.0
    /// A newest point older than this (by the state's clock) is too old to advise on: a week.
    public static let staleAfterDays = 7
    /// A newest point older than this is named as old in the reason.
    public static let datedAfterDays = 2

    /// The position thresholds, tuned by the backtest (`Run backtest`) on the first half of the recorded days.
    public struct Rule: Hashable, Sendable, CustomStringConvertible {
        /// At or below this position: near the trough, the next rise is due.
        public var fillAtOrBelow: Double
        /// Rising and below this position: the rise has begun and has further to go.
        public var fillWhileRisingBelow: Double

        public static let standard = Rule(fillAtOrBelow: 0.25, fillWhileRisingBelow: 0.5)

        public var description: String { "fill at position <= \(fillAtOrBelow), or rising below \(fillWhileRisingBelow)" }
    }

    /// The advice over `points` (the city's daily averages for `fuel`, oldest first) on `today` (the state's
    /// day by its own data clock), with Perth's tomorrow outlook where published. `source` is the state's: sample
    /// data is named as such, with its date.
    public init(
        city: MetroArea, fuel: FuelType, points: [DailyPoint], today: CalendarDay, tomorrow: TomorrowOutlook? = nil,
        rule: Rule = .standard, source: DataSource = .live
    ) {
        self.city = city
        self.fuel = fuel
        self.tomorrow = tomorrow
        let reading = CycleReading(points: points)
        self.reading = reading
        let place = "\(city.name) \(fuel.rawValue)"
        let sample = source == .sample
        if let tomorrow, let verdict = tomorrow.verdict {
            self.verdict = verdict
            let movement = verdict == .tomorrowCheaper ? "falls" : "rises"
            self.reason = "Tomorrow's prices are published: the \(place) average \(movement) from "
                + "\(Self.cents(tomorrow.todayAverage)) to \(Self.cents(tomorrow.tomorrowAverage)) c/L at 6 am on "
                + "\(tomorrow.tradingDay) across \(tomorrow.stationCount) stations."
                + (sample ? " Sample data." : "")  // dated already; the summary's byte budget is tight
            return
        }
        guard let reading else {
            (verdict, reason) = (.notEnoughHistory, "No daily \(place) averages have been recorded yet.")
            return
        }
        let age = today.days(since: reading.through)
        if age > Self.staleAfterDays {
            (verdict, reason) = (.notEnoughHistory, "The newest \(place) average is from \(reading.through), \(age) days old: too old to advise on.")
            return
        }
        var note = ""
        if sample { note += " This is sample data, recorded for \(reading.through)." }
        if age > Self.datedAfterDays { note += " The newest average is from \(reading.through), \(age) days old." }
        if reading.historyDays < Self.minimumHistoryDays {
            (verdict, reason) = (
                .notEnoughHistory,
                "Only \(reading.historyDays) of the \(Self.minimumHistoryDays) days needed to place \(place) in its cycle, to \(reading.through)." + note)
        } else if reading.cycle.high - reading.cycle.low < Self.minimumRangeCents {
            (verdict, reason) = (
                .noCycle,
                "The \(place) average moved only \(Self.cents(reading.cycle.high - reading.cycle.low)) c/L in the "
                    + "\(reading.historyDays) days to \(reading.through), so there is no cycle to time." + note)
        } else {
            verdict = Self.decide(reading, rule: rule)
            reason = Self.movement(reading, place: place) + note
        }
    }

    /// The cycle rule's verdict on a reading.
    static func decide(_ reading: CycleReading, rule: Rule) -> Verdict {
        let cycle = reading.cycle
        if cycle.position <= rule.fillAtOrBelow { return .fillUpNow }
        if cycle.direction == .rising && cycle.position < rule.fillWhileRisingBelow { return .fillUpNow }
        return .wait
    }

    /// What the last days' averages show: the newest, its date, and its change on the days before it.
    static func movement(_ reading: CycleReading, place: String) -> String {
        let change = reading.cycle.change
        let days = min(Cycle.lookback, reading.historyDays - 1)
        let direction = switch reading.cycle.direction {
        case .rising: "up \(cents(change)) c/L on"
        case .falling: "down \(cents(-change)) c/L on"
        case .steady: "level with"
        }
        return "The \(place) average was \(cents(reading.latest)) c/L on \(reading.through), \(direction) the mean of the \(days) days before."
    }

    static func cents(_ value: Double) -> String {
        String(format: "%.1f", value)
    }

    static func percent(_ rate: Double) -> String {
        "\(Int((rate * 100).rounded())) %"
    }
}

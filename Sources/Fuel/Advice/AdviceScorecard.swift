/// The served cycle rule and the three naive baselines (`AdviceSkill.Baseline`) replayed over the same days of a
/// city's daily averages: on each day, each rule's advice from the days up to it, then whether the next
/// `CycleBacktest.horizonDays` proved it right (`wait`: a lower average follows; `fill_up_now`: a higher one does).
/// A day counts only when a later point falls within the horizon and the served rule advised (not `no_cycle` or
/// `not_enough_history`): every rule is scored on exactly those days.
public struct AdviceScorecard: Hashable, Sendable {
    public var days = 0
    public var waits = 0
    public var waitHits = 0
    public var fills = 0
    public var fillHits = 0
    public var baselineHits: [AdviceSkill.Baseline: Int] = [:]
    /// Days the served rule abstained on (not scored).
    public var abstained = 0
    /// The newest day of the series scored from.
    public var through = ""

    /// The mean of the averages within this many days up to and including a day is its "7-day mean".
    public static let meanDays = 7

    public init() {}

    public var hits: Int { waitHits + fillHits }
    public var hitRate: Double? { days == 0 ? nil : Double(hits) / Double(days) }

    public func rate(of baseline: AdviceSkill.Baseline) -> Double? {
        days == 0 ? nil : Double(baselineHits[baseline] ?? 0) / Double(days)
    }

    /// The baseline right most often (ties: the first in `Baseline.allCases`), and its rate.
    public var bestBaseline: (AdviceSkill.Baseline, Double)? {
        guard days > 0 else { return nil }
        var best: (AdviceSkill.Baseline, Double)?
        for baseline in AdviceSkill.Baseline.allCases {
            let rate = rate(of: baseline) ?? 0
            if best == nil || rate > best!.1 + 1e-9 { best = (baseline, rate) }
        }
        return best
    }

    /// The evidence served with the advice; nil when no day could be scored.
    public var skill: AdviceSkill? {
        guard let hitRate, let (baseline, rate) = bestBaseline else { return nil }
        return AdviceSkill(hitRate: hitRate, bestBaseline: baseline, baselineHitRate: rate, daysScored: days, through: through)
    }

    /// Scores the days of `points` (oldest first) whose index is in `scored`.
    public static func score(
        city: MetroArea, fuel: FuelType, points: [DailyPoint], scored: Range<Int>, rule: CycleAdvice.Rule = .standard
    ) -> AdviceScorecard {
        var card = AdviceScorecard()
        card.through = points.last?.day ?? ""
        // A series with a day that does not parse or an average that is not a number is scored as nothing (files
        // are scored as they load, before their range checks).
        let days = points.compactMap { CalendarDay($0.day) }
        guard days.count == points.count, points.allSatisfy({ $0.average.isFinite }) else { return card }
        for index in scored where points.indices.contains(index) {
            let future = points[(index + 1)...].indices.prefix { days[$0].days(since: days[index]) <= CycleBacktest.horizonDays }
            guard !future.isEmpty else { continue }
            let today = points[index].average
            let lower = future.contains { points[$0].average < today }
            let higher = future.contains { points[$0].average > today }
            let advice = CycleAdvice(city: city, fuel: fuel, points: Array(points[...index]), today: days[index], rule: rule)
            switch advice.verdict {
            case .wait:
                card.waits += 1
                if lower { card.waitHits += 1 }
            case .fillUpNow:
                card.fills += 1
                if higher { card.fillHits += 1 }
            default:
                card.abstained += 1
                continue
            }
            card.days += 1
            let weekStart = days[index].advanced(by: -(meanDays - 1))
            let week = points.indices[...index].filter { days[$0] >= weekStart }.map { points[$0].average }
            let mean = week.reduce(0, +) / Double(week.count)
            if higher { card.baselineHits[.alwaysFillUpNow, default: 0] += 1 }
            if lower { card.baselineHits[.alwaysWait, default: 0] += 1 }
            if today > mean ? lower : higher { card.baselineHits[.waitAboveWeekMean, default: 0] += 1 }
        }
        return card
    }

    /// The held-out half of a series: its newer half of days (the rule was tuned on recorded days before them).
    public static func heldOut(_ points: [DailyPoint]) -> Range<Int> { (points.count / 2)..<points.count }
}

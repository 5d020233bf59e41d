/// Replays a city's daily averages day by day: on each day, the advice from the days up to it, then whether the
/// next days proved it right. `wait` is a hit when a lower average follows within `horizonDays`; `fill_up_now`
/// when a higher one does. Days without a later point within the horizon are not scored.
public enum CycleBacktest {
    public static let horizonDays = 3

    public struct Tally: Hashable, Sendable {
        public var waits = 0
        public var waitHits = 0
        public var fills = 0
        public var fillHits = 0
        /// Days with no_cycle or not_enough_history (not scored).
        public var abstained = 0

        public var decisions: Int { waits + fills }
        public var hits: Int { waitHits + fillHits }
        public var hitRate: Double? { decisions == 0 ? nil : Double(hits) / Double(decisions) }
        public var waitRate: Double? { waits == 0 ? nil : Double(waitHits) / Double(waits) }
        public var fillRate: Double? { fills == 0 ? nil : Double(fillHits) / Double(fills) }
    }

    /// Scores the advice on the days of `points` (oldest first) whose index is in `scored`, each advised from
    /// all the points up to and including it: the served rule's side of `AdviceScorecard.score`.
    public static func score(
        city: MetroArea, fuel: FuelType, points: [DailyPoint], scored: Range<Int>, rule: CycleAdvice.Rule
    ) -> Tally {
        let card = AdviceScorecard.score(city: city, fuel: fuel, points: points, scored: scored, rule: rule)
        return Tally(waits: card.waits, waitHits: card.waitHits, fills: card.fills, fillHits: card.fillHits, abstained: card.abstained)
    }

    /// The candidate rules the backtest tunes over.
    public static let candidates: [CycleAdvice.Rule] = stride(from: 0.0, through: 0.6, by: 0.05).flatMap { low in
        [0.0, 0.25, 0.5, 0.75, 1.0].map { CycleAdvice.Rule(fillAtOrBelow: low, fillWhileRisingBelow: $0) }
    }

    /// The rule with the most hits (ties: the higher hit rate, then the earlier candidate) over `scored`.
    public static func tune(city: MetroArea, fuel: FuelType, points: [DailyPoint], scored: Range<Int>) -> (CycleAdvice.Rule, Tally) {
        var best = (CycleAdvice.Rule.standard, score(city: city, fuel: fuel, points: points, scored: scored, rule: .standard))
        for rule in candidates {
            let tally = score(city: city, fuel: fuel, points: points, scored: scored, rule: rule)
            if tally.hits > best.1.hits || (tally.hits == best.1.hits && (tally.hitRate ?? 0) > (best.1.hitRate ?? 0)) {
                best = (rule, tally)
            }
        }
        return best
    }
}

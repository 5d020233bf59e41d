import Foundation
import Testing

@testable import Fuel

/// The cycle rule is scored against the three naive baselines on held-out days, the same way on the
/// same days, and served only where it beats the best of them.
@Suite struct AdviceSkillTests {
    /// A market that only rises: 0.5 c a day with a ±0.2 c wobble, 60 days.
    static func trending(days: Int = 60) -> [DailyPoint] {
        var averages: [Double] = []
        for day in 0..<days {
            let wobble: Double = day % 2 == 0 ? 0.2 : -0.2
            averages.append(170 + 0.5 * Double(day) + wobble)
        }
        return CycleAdviceTests.points(averages)
    }

    /// `count` 14-day cycles: a 4-day rise from 170 to 200 (170, 172, 180, 195, 200), then 3 c a day down to 173.
    /// The rule is right 93 % of its held-out days, always waiting 78 % (it misses every rise).
    static func cycles(_ count: Int) -> [DailyPoint] {
        var averages: [Double] = []
        for _ in 0..<count {
            averages += [170, 172, 180, 195, 200]
            for step in 1...9 { averages.append(200 - 3 * Double(step)) }
        }
        return CycleAdviceTests.points(averages)
    }

    @Test func onSyntheticCyclesTheRuleBeatsEveryBaselineAndIsServed() throws {
        let points = Self.cycles(6)  // 84 days
        let card = AdviceScorecard.score(city: .sydney, fuel: .U91, points: points, scored: AdviceScorecard.heldOut(points))
        #expect(card.days >= 35)
        let skill = try #require(card.skill)
        for baseline in AdviceSkill.Baseline.allCases {
            #expect(card.hitRate! > card.rate(of: baseline)!, "\(baseline): \(card.rate(of: baseline)!) vs \(card.hitRate!)")
        }
        #expect(skill.beatsBaseline)
        #expect(skill.daysScored == card.days)
        #expect(skill.through == points.last!.day)

        let served = CycleAdviceTests.advice(points).gated(by: skill)
        #expect([.wait, .fillUpNow].contains(served.verdict))
        #expect(served.reason.contains("held-out days to \(points.last!.day)"))
        #expect(served.skill == skill)
    }

    @Test func inATrendingMarketTheRuleAbstains() throws {
        let points = Self.trending()
        let card = AdviceScorecard.score(city: .sydney, fuel: .U91, points: points, scored: AdviceScorecard.heldOut(points))
        let skill = try #require(card.skill)
        #expect(skill.bestBaseline == .alwaysFillUpNow)
        #expect(skill.baselineHitRate == 1)  // it always rose
        #expect(!skill.beatsBaseline)

        let raw = CycleAdviceTests.advice(points)
        #expect(raw.verdict == .wait)  // near the window's high: the unscored rule would say wait
        let served = raw.gated(by: skill)
        #expect(served.verdict == .noReliableSignal)
        #expect(served.reason.hasPrefix("On \(skill.daysScored) held-out days to \(points.last!.day), the Sydney U91 cycle rule was right"))
        #expect(served.reason.contains("right 0 % of the time, always filling up now 100 %: no better than a coin toss."))
        #expect(served.reason.contains("c/L on \(points.last!.day), up"))
    }

    @Test func baselinesAreScoredOnTheDaysTheRuleAdvised() {
        // 10 flat days (no cycle: abstains), then a sawtooth: only the sawtooth days count, for every rule.
        let flat = CycleAdviceTests.points(Array(repeating: 180, count: 10))
        let cycles = CycleAdviceTests.sawtooth(cycles: 3).enumerated().map { offset, point in
            DailyPoint(day: CycleAdviceTests.start.advanced(by: 10 + offset).description, average: point.average, min: point.min, max: point.max, stationCount: 50)
        }
        let points = flat + cycles
        let card = AdviceScorecard.score(city: .sydney, fuel: .U91, points: points, scored: 0..<points.count)
        #expect(card.abstained >= 10)
        #expect(card.days == card.waits + card.fills)
        #expect(card.days + card.abstained == points.count - 1)  // the last day has no future
    }

    @Test func theWeekMeanBaselineWaitsOnlyAboveTheMean() {
        // Day 7 (index 6) at 200 after six days at 180, then 190: above the mean, it waits, and a lower day follows.
        let points = CycleAdviceTests.points([180, 180, 180, 180, 180, 180, 200, 190, 190, 190])
        let card = AdviceScorecard.score(city: .sydney, fuel: .U91, points: points, scored: 6..<7)
        // The rule advises (7 days spanning 20 c: at the high, wait), so the day counts.
        #expect(card.days == 1)
        #expect(card.baselineHits[.waitAboveWeekMean] == 1)
        #expect(card.baselineHits[.alwaysWait] == 1)
        #expect(card.baselineHits[.alwaysFillUpNow] == nil)
    }

    @Test func unscoredOrTooFewDaysIsNoReliableSignal() {
        let advice = CycleAdviceTests.advice(CycleAdviceTests.sawtooth(cycles: 2))
        #expect([.wait, .fillUpNow].contains(advice.verdict))
        let unscored = advice.gated(by: nil)
        #expect(unscored.verdict == .noReliableSignal)
        #expect(unscored.reason.hasPrefix("The cycle advice for Sydney U91 has not been scored on enough held-out days yet."))
        let few = AdviceSkill(hitRate: 1, bestBaseline: .alwaysWait, baselineHitRate: 0.5, daysScored: 9, through: "2026-03-28")
        #expect(advice.gated(by: few).verdict == .noReliableSignal)
        #expect(advice.gated(by: few).reason.contains("too few days to tell"))
        let enough = AdviceSkill(hitRate: 1, bestBaseline: .alwaysWait, baselineHitRate: 0.5, daysScored: 10, through: "2026-03-28")
        #expect(advice.gated(by: enough).verdict == advice.verdict)
        let tie = AdviceSkill(hitRate: 0.6, bestBaseline: .alwaysWait, baselineHitRate: 0.6, daysScored: 30, through: "2026-03-28")
        #expect(advice.gated(by: tie).verdict == .noReliableSignal)
        // Melbourne E85 on the recording: 29 % against baselines of at most 25 %: better, but wrong most days.
        let coin = AdviceSkill(hitRate: 0.29, bestBaseline: .alwaysFillUpNow, baselineHitRate: 0.25, daysScored: 24, through: "2026-08-20")
        #expect(advice.gated(by: coin).verdict == .noReliableSignal)
        #expect(advice.gated(by: coin).reason.contains("no better than a coin toss"))
    }

    @Test func verdictsThatAreNotForecastsAreNotGated() {
        let flat = CycleAdviceTests.advice(CycleAdviceTests.points((0..<20).map { 180 + Double($0 % 3) }))
        #expect(flat.gated(by: nil).verdict == .noCycle)
    }

    @Test func theHistoryKeepsAndSavesEachSeriesSkillAndRescoresAsItGrows() throws {
        let points = Self.cycles(6)
        let history = History(series: [:], metro: [MetroFuel(.sydney, .U91): Array(points.prefix(40))])
        let early = try #require(history.skill(city: .sydney, fuel: .U91))
        #expect(early.through == points[39].day)
        let grown = history.fillingMetro(.sydney, .U91, with: Array(points.dropFirst(40)))
        let later = try #require(grown.skill(city: .sydney, fuel: .U91))
        #expect(later.through == points.last!.day)
        #expect(later.daysScored > early.daysScored)

        let data = try JSONEncoder().encode(grown)
        #expect(String(decoding: data, as: UTF8.self).contains("\"skill\""))
        let decoded = try JSONDecoder().decode(History.self, from: data)
        #expect(decoded == grown)
        #expect(decoded.skill(city: .sydney, fuel: .U91) == later)
    }
}

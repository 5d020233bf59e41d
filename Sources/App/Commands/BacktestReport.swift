import Foundation
import Fuel
import Providers

/// `Run backtest`: the cycle advice replayed over the recorded daily history, against the three naive baselines
/// (`AdviceSkill.Baseline`) on the held-out half of each series' days, scored the same way on the same days
/// (`AdviceScorecard`), as the server scores each series' history to decide whether to serve the rule. Melbourne:
/// the 50 VIC daily payloads (65 metro stations of the 120 recorded). Perth: FuelWatch's own Metro ULP averages
/// (price-trends reports, 52 days); the 8 captured WA days alone are too few and are reported as such.
struct BacktestReport {
    struct Row {
        var series: String
        var days: Int
        /// The rule tuned on the first half (shown beside the served one, never served).
        var rule: CycleAdvice.Rule?
        /// The held-out half under the served rule (`CycleAdvice.Rule.standard`) and the baselines.
        var served: AdviceScorecard?
        /// The held-out half under the rule tuned on the first half.
        var tuned: AdviceScorecard?
    }

    var rows: [Row]

    /// A series needs this many days: a week to advise at all in each half, plus the horizon.
    static let minimumDays = 2 * (CycleAdvice.minimumHistoryDays + CycleBacktest.horizonDays)

    static func run() throws -> BacktestReport {
        let bundle = try SampleData.load()
        let history = History.replaying(bundle.history, source: .sample)
        var series: [(String, MetroArea, FuelType, [DailyPoint])] = []
        for fuel in FuelType.allCases {
            let points = history.points(city: .melbourne, fuel: fuel)
            if !points.isEmpty { series.append(("melbourne \(fuel.rawValue) (VIC daily payloads)", .melbourne, fuel, points)) }
        }
        series.append(("perth U91 (FuelWatch price-trends report)", .perth, .U91, try SampleData.perthMetroReport()))
        for fuel in FuelType.allCases {
            let points = history.points(city: .perth, fuel: fuel)
            if !points.isEmpty { series.append(("perth \(fuel.rawValue) (WA daily captures)", .perth, fuel, points)) }
        }
        return BacktestReport(rows: series.map { evaluate($0.0, city: $0.1, fuel: $0.2, points: $0.3) })
    }

    static func evaluate(_ name: String, city: MetroArea, fuel: FuelType, points: [DailyPoint]) -> Row {
        guard points.count >= minimumDays else { return Row(series: name, days: points.count) }
        let heldOut = AdviceScorecard.heldOut(points)
        let (rule, _) = CycleBacktest.tune(city: city, fuel: fuel, points: points, scored: 0..<heldOut.lowerBound)
        return Row(
            series: name, days: points.count, rule: rule,
            served: AdviceScorecard.score(city: city, fuel: fuel, points: points, scored: heldOut),
            tuned: AdviceScorecard.score(city: city, fuel: fuel, points: points, scored: heldOut, rule: rule))
    }

    var text: String {
        var lines = [
            "Cycle advice backtest on the held-out (newer) half of each series: wait is right when a lower city average",
            "follows within \(CycleBacktest.horizonDays) days, fill_up_now when a higher one does; the three baselines are scored on the",
            "same days (those the served rule advised on). The server serves the rule only where it beats the best baseline",
            "(and is right more often than not) over at least \(AdviceSkill.minimumDaysScored) days.",
            "",
            Self.pad(["series", "days", "scored", "served rule", "fill up now", "wait > 7d mean", "always wait", "served?"]),
        ]
        for row in rows {
            guard let card = row.served, let rule = row.rule else {
                lines.append("\(row.series): \(row.days) days, fewer than the \(Self.minimumDays) needed; not scored")
                continue
            }
            let served = card.skill?.beatsBaseline == true ? "yes" : "no_reliable_signal"
            lines.append(Self.pad([
                row.series, String(row.days), String(card.days),
                "\(Self.percent(card.hitRate)) (wait \(card.waitHits)/\(card.waits), fill \(card.fillHits)/\(card.fills))",
                Self.percent(card.rate(of: .alwaysFillUpNow)), Self.percent(card.rate(of: .waitAboveWeekMean)),
                Self.percent(card.rate(of: .alwaysWait)), served,
            ]))
            if let tuned = row.tuned {
                lines.append("    tuned on the first half: \(rule): \(Self.percent(tuned.hitRate)) on \(tuned.days) days (not served)")
            }
        }
        return lines.joined(separator: "\n")
    }

    /// The table as Markdown, for the README.
    var markdown: String {
        var lines = [
            "| series | days | held-out days scored | served rule | always fill up now | wait if above 7-day mean | always wait | served |",
            "|---|---|---|---|---|---|---|---|",
        ]
        for row in rows {
            guard let card = row.served else { continue }
            let served = card.skill?.beatsBaseline == true ? "the rule" : "`no_reliable_signal`"
            lines.append("| \(row.series) | \(row.days) | \(card.days) | \(Self.percent(card.hitRate)) (wait \(card.waitHits)/\(card.waits), fill \(card.fillHits)/\(card.fills)) | "
                + "\(Self.percent(card.rate(of: .alwaysFillUpNow))) | \(Self.percent(card.rate(of: .waitAboveWeekMean))) | \(Self.percent(card.rate(of: .alwaysWait))) | \(served) |")
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ rate: Double?) -> String {
        rate.map { String(format: "%.0f%%", $0 * 100) } ?? "-"
    }

    static func pad(_ cells: [String]) -> String {
        let widths = [44, 5, 7, 30, 12, 15, 12, 18]
        return zip(cells, widths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }.joined(separator: " ")
    }
}

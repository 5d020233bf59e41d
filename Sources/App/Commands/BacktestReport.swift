import Foundation
import Fuel
import Providers

/// `Run backtest`: the cycle advice replayed over the recorded daily history. Each series is split in half by
/// days; the rule is tuned on the first half only and both halves are printed, the second being the honest
/// figure. Melbourne: the 50 VIC daily payloads (65 metro stations of the 120 recorded). Perth: FuelWatch's own
/// Metro ULP averages (price-trends reports, 52 days); the 8 captured WA days alone are too few and are
/// reported as such.
struct BacktestReport {
    struct Row {
        var series: String
        var days: Int
        var rule: CycleAdvice.Rule?
        var first: CycleBacktest.Tally?
        var second: CycleBacktest.Tally?
        /// The second half under the rule the server uses (`CycleAdvice.Rule.standard`).
        var served: CycleBacktest.Tally?
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
        let half = points.count / 2
        let (rule, first) = CycleBacktest.tune(city: city, fuel: fuel, points: points, scored: 0..<half)
        let second = CycleBacktest.score(city: city, fuel: fuel, points: points, scored: half..<points.count, rule: rule)
        let served = CycleBacktest.score(city: city, fuel: fuel, points: points, scored: half..<points.count, rule: .standard)
        return Row(series: name, days: points.count, rule: rule, first: first, second: second, served: served)
    }

    var text: String {
        var lines = [
            "Cycle advice backtest: wait is a hit when a lower city average follows within \(CycleBacktest.horizonDays) days,",
            "fill_up_now when a higher one does. Tuned on the first half of each series; the second half is the result.",
            "",
            Self.pad(["series", "days", "half", "wait hits/n", "rate", "fill hits/n", "rate", "all", "abstain"]),
        ]
        for row in rows {
            guard let first = row.first, let second = row.second, let rule = row.rule else {
                lines.append("\(row.series): \(row.days) days, fewer than the \(Self.minimumDays) needed; not scored")
                continue
            }
            for (label, tally) in [("1 (tuned)", first), ("2 (test)", second), ("2 (served)", row.served ?? second)] {
                lines.append(Self.pad([
                    row.series, String(row.days), label, "\(tally.waitHits)/\(tally.waits)", Self.percent(tally.waitRate),
                    "\(tally.fillHits)/\(tally.fills)", Self.percent(tally.fillRate), Self.percent(tally.hitRate), String(tally.abstained),
                ]))
            }
            lines.append("    rule tuned on half 1: \(rule); served: \(CycleAdvice.Rule.standard)")
        }
        return lines.joined(separator: "\n")
    }

    static func percent(_ rate: Double?) -> String {
        rate.map { String(format: "%.0f%%", $0 * 100) } ?? "-"
    }

    static func pad(_ cells: [String]) -> String {
        let widths = [48, 5, 10, 12, 5, 12, 5, 5, 7]
        return zip(cells, widths).map { $0.padding(toLength: max($1, $0.count), withPad: " ", startingAt: 0) }.joined(separator: " ")
    }
}

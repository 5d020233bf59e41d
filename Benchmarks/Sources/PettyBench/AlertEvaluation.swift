import App
import Foundation
import Fuel

/// `alert-evaluation --data-dir DIR`: the evaluator's in-memory cost over the large dataset (`make-large-dataset`).
/// Builds `--alerts` alerts of `AlertWorkload` (SYNTHETIC: see there for what it models) and reports the index's
/// build time and RSS (target: at most 250 MB more). Then a poll with `--changes` changed prices spread over the
/// country (`AlertWorkload.changed`), evaluated `--runs` times with warm states (every alert's state at the changed
/// stations as the snapshot before left it): matching and deciding, the median against the target of 50 ms, with
/// the decisions it made and how many cheapest searches the `cheapest_changed` alerts needed.
enum AlertEvaluation {
    static func run(_ options: Options) throws {
        guard let directory = options.string("data-dir") else { throw BenchError("alert-evaluation needs --data-dir DIR (PettyBench make-large-dataset --out DIR)") }
        guard let dataset = BenchmarkFacade.load(from: directory) else { throw BenchError("no snapshot in \(directory)") }
        let alertCount = try options.int("alerts", default: 1_000_000)
        let changeCount = try options.int("changes", default: 2_000)
        let runs = try options.int("runs", default: 9)
        let seed = UInt64(try options.int("seed", default: 42))
        // `make-large-dataset` merges its synthetic stations as sample data, and sample prices never move an alert:
        // here they stand for live ones, or the poll would match nothing.
        let sample = dataset.snapshot
        let latest = sample.entries.flatMap { $0.prices.map { $0.seenAt ?? $0.updatedAt } }.max() ?? Date()
        let before = Self.readAsLive(sample, at: latest)
        let t1 = latest.addingTimeInterval(300)
        let (after, changedKeys) = AlertWorkload.changed(before, count: changeCount, at: t1, seed: seed &+ 1)
        let beforeIndex = FuelIndex(snapshot: before)
        let index = FuelIndex(snapshot: after)

        let rssBefore = ProcStats.statusKB("VmRSS")
        let generated = AlertWorkload(snapshot: after, alerts: alertCount, seed: seed)
        let buildStarted = ProcStats.millis()
        var alerts = AlertIndex()
        alerts.reserveCapacity(alertCount)
        for alert in generated.alerts { alerts.upsert(alert) }
        let buildMillis = ProcStats.millis() - buildStarted
        let devices = generated.devices.count
        _ = consume generated
        let rssAfter = ProcStats.statusKB("VmRSS")
        let megabytes = Double(rssAfter - rssBefore) / 1024
        print("alert-evaluation: index of \(alertCount) alerts (\(devices) devices) over \(before.entries.count) stations built in \(fixed(buildMillis / 1000, 2)) s, +\(fixed(megabytes)) MB RSS; target <= 250 MB: \(megabytes <= 250 ? "PASS" : "MISS")")

        // Warm states: what evaluating the changed stations' previous prices left (armed or not, references, cheapest).
        // A warm evaluator also holds the answers of the areas that poll evaluated (`HeldCheapest`); a cold one (a
        // restart, a new leader) holds none and searches every area, as every poll did before answers were held.
        let warmChanges = beforeIndex.changes(since: .distantPast).filter { changedKeys.contains("\($0.station.rawValue).\($0.fuel.rawValue)") }
        let warmPoll = AlertPoll(index: beforeIndex, changes: Array(warmChanges), now: latest)
        var evaluator = AlertEvaluator(index: alerts)
        let warm = evaluator.evaluate(warmPoll, states: [:])

        let poll = AlertPoll(index: index, changes: Array(index.changes(since: latest)), previous: before, now: t1)
        var outcome = AlertOutcome()
        var searches = (cold: 0, warm: 0)
        var timings = (cold: [Double](), warm: [Double]())
        for _ in 0..<runs {
            var cold = AlertEvaluator(index: alerts)
            var started = ProcStats.millis()
            let coldOutcome = cold.evaluate(poll, states: warm.states)
            timings.cold.append(ProcStats.millis() - started)
            searches.cold = cold.lastSearches
            evaluator = AlertEvaluator(index: alerts)
            _ = evaluator.evaluate(warmPoll, states: [:])
            started = ProcStats.millis()
            outcome = evaluator.evaluate(poll, states: warm.states)
            timings.warm.append(ProcStats.millis() - started)
            searches.warm = evaluator.lastSearches
            guard outcome == coldOutcome else { throw BenchError("the warm evaluator decided otherwise than the cold one") }
        }
        print("alert-evaluation: cold evaluator (no held answers): median \(fixed(median(timings.cold), 1)) ms (min \(fixed(timings.cold.min() ?? 0, 1))), \(searches.cold) cheapest searches")
        let kinds = Dictionary(grouping: outcome.decisions) { evaluator.index[$0.alertID]?.definition.kind.rawValue ?? "?" }
            .map { "\($0.key) \($0.value.count)" }.sorted().joined(separator: ", ")
        let figure = median(timings.warm)
        print("alert-evaluation: a poll of \(poll.changes.count) changed prices over \(alertCount) alerts (\(warm.states.count) warm states): median \(fixed(figure, 1)) ms (min \(fixed(timings.warm.min() ?? 0, 1)), max \(fixed(timings.warm.max() ?? 0, 1))), \(searches.warm) cheapest searches, \(outcome.decisions.count) decisions (\(kinds)), \(outcome.states.count) states written; target <= 50 ms: \(figure <= 50 ? "PASS" : "MISS")")
        withExtendedLifetime(alerts) {}
    }

    /// The sample snapshot as a live feed would hold it at `instant`: every provider live, and WA's tomorrow prices
    /// (captured on another day than the other states' prices) re-dated to the trading day after `instant`, so a
    /// poll at `instant` finds them published as a live FuelWatch feed's would be.
    static func readAsLive(_ sample: Snapshot, at instant: Date) -> Snapshot {
        let day = WATradingDay.nextTradingDay(after: instant)
        let entries = sample.entries.map { entry in
            guard entry.station.state == .WA else { return entry }
            var redated = entry
            redated.prices = entry.prices.map { price in
                var moved = price
                moved.tomorrow = price.tomorrow.map { TomorrowPrice(price: $0.price, day: day.description) }
                return moved
            }
            return redated
        }
        return Snapshot(version: sample.version, changedAt: sample.changedAt, entries: entries, statuses: sample.statuses.map { status in
            var live = status
            live.source = .live
            if status.provider == .wa {
                live.tomorrow?.day = day
                live.tomorrow?.heldSince = instant
            }
            return live
        })
    }
}

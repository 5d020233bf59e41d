import App
import Foundation
import Fuel
import Providers

/// `merge-nsw`: what one full NSW poll costs in-process, stage by stage, as the server does it:
/// adapt the 2.5 MB `/prices` payload, merge it into the dataset (live data replacing the sample NSW data, with
/// the history recording), build the `FuelIndex`, render the App's per-snapshot responses. Plus the same work
/// end to end through `FuelStore.apply` with the App's render (what the poller's sink calls).
enum MergeNSW {
    static let defaultPayload = "Sources/Providers/SampleData/nsw/nsw_v1_fuel_prices.json"

    static func run(_ options: Options) throws {
        let path = options.string("payload") ?? defaultPayload
        let runs = max(1, try options.int("runs", default: 5))
        let baseName = options.string("base") ?? "sample"
        guard let payload = FileManager.default.contents(atPath: path) else {
            throw BenchError("cannot read \(path) (run from the package root or pass --payload)")
        }
        let base: Dataset
        if baseName == "sample" {
            base = try BenchmarkFacade.sampleDataset()
        } else {
            guard let loaded = BenchmarkFacade.load(from: baseName) else { throw BenchError("no snapshot in \(baseName)") }
            base = loaded
        }
        let rssBefore = ProcStats.statusKB("VmRSS")

        var adaptMs: [Double] = [], mergeMs: [Double] = [], indexMs: [Double] = [], renderMs: [Double] = [], totalMs: [Double] = []
        var applyMs: [Double] = [], steadyAdaptMs: [Double] = [], steadyApplyMs: [Double] = []
        var summary = ""
        for _ in 0..<runs {
            let now = Date()
            let t0 = ProcStats.millis()
            let adapted = try NSWFuelCheckAdapter.adapt(payload, fetchedAt: now)
            let t1 = ProcStats.millis()
            guard let update = adapted.first(where: { $0.update.provider == .nsw })?.update else { throw BenchError("no NSW update in the payload") }
            let (merged, report) = base.merging(update, source: .live, at: now)
            guard report.isApplied else { throw BenchError("merge not applied: \(report.outcome)") }
            let t2 = ProcStats.millis()
            let index = FuelIndex(snapshot: merged.snapshot)
            let t3 = ProcStats.millis()
            let rendered = BenchmarkFacade.render(merged, index: index)
            let t4 = ProcStats.millis()
            adaptMs.append(t1 - t0)
            mergeMs.append(t2 - t1)
            indexMs.append(t3 - t2)
            renderMs.append(t4 - t3)
            totalMs.append(t4 - t0)
            summary = "\(update.stations.count) stations, \(update.prices.count) prices adapted; merged dataset \(merged.snapshot.stationCount) stations, \(merged.snapshot.priceCount) prices; \(rendered / 1024) KB rendered"

            // End to end through the store (the poller's path after adapting), store built outside the timing.
            let store = FuelStore<Int>(initial: base) { basis in BenchmarkFacade.render(basis.dataset, index: basis.index) }
            let t5 = ProcStats.millis()
            let applied = store.apply(update, source: .live, at: now)
            let t6 = ProcStats.millis()
            guard applied.isApplied else { throw BenchError("store apply not applied") }
            applyMs.append(t6 - t5)

            // Steady state: NSW already live in a server-rendering store (every poll after the first one).
            let server = BenchmarkFacade.makeServerStore(merged)
            let later = now.addingTimeInterval(1_800)
            let t7 = ProcStats.millis()
            let again = try NSWFuelCheckAdapter.adapt(payload, fetchedAt: later)
            guard let next = again.first(where: { $0.update.provider == .nsw })?.update else { throw BenchError("no NSW update") }
            let t8 = ProcStats.millis()
            _ = server.apply(next, source: .live, at: later)
            let t9 = ProcStats.millis()
            steadyAdaptMs.append(t8 - t7)
            steadyApplyMs.append(t9 - t8)
            withExtendedLifetime((adapted, merged, index, store, server)) {}
        }
        let hwm = ProcStats.statusKB("VmHWM")
        let payloadKB = payload.count / 1024
        print("merge-nsw: \(path) (\(payloadKB) KB) into the \(baseName == "sample" ? "bundled sample dataset" : "dataset in \(baseName)") (\(base.snapshot.stationCount) stations, \(base.snapshot.priceCount) prices); \(runs) runs, medians (min–max)")
        print("  \(summary)")
        for (name, values) in [("adapt (JSON decode + map)", adaptMs), ("Dataset.merging (+ history)", mergeMs), ("FuelIndex build", indexMs),
                               ("App render (RenderedSnapshot)", renderMs), ("total of the four", totalMs), ("FuelStore.apply end to end", applyMs)] {
            print("  \(name.padding(toLength: 32, withPad: " ", startingAt: 0)) \(fixed(median(values))) ms  (\(fixed(values.min() ?? 0))–\(fixed(values.max() ?? 0)))")
        }
        print("  RSS before \(rssBefore / 1024) MB, peak (VmHWM) \(hwm / 1024) MB, peak delta \(max(0, hwm - rssBefore) / 1024) MB")
        print("  steady state (NSW already live): adapt \(fixed(median(steadyAdaptMs))) ms + server store apply \(fixed(median(steadyApplyMs))) ms")
        print("MERGE_RESULT steady_adapt=\(fixed(median(steadyAdaptMs))) steady_apply=\(fixed(median(steadyApplyMs))) base=\(baseName == "sample" ? "sample" : "large") stations=\(base.snapshot.stationCount) adapt=\(fixed(median(adaptMs))) merge=\(fixed(median(mergeMs))) index=\(fixed(median(indexMs))) render=\(fixed(median(renderMs))) total=\(fixed(median(totalMs))) apply=\(fixed(median(applyMs))) rss_before_kb=\(rssBefore) hwm_kb=\(hwm) delta_kb=\(max(0, hwm - rssBefore))")
    }
}

import Foundation
import Testing
@testable import Providers

/// Manual timing, not a test of speed: prints how long adapting takes. Run it in release:
/// `PETTY_PERF=1 swift test -c release --filter PerformanceProbe`. It asserts nothing about time.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PETTY_PERF"] != nil, "set PETTY_PERF=1 to print timings"))
struct PerformanceProbe {
    private func best<T>(of runs: Int = 5, _ body: () throws -> T) rethrows -> (ms: Double, value: T) {
        var best = Double.infinity
        var value: T?
        for _ in 0..<runs {
            let start = ContinuousClock.now
            value = try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) * 1_000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        return (best, value!)
    }

    @Test func printAdapterAndSampleLoadTimings() throws {
        let nsw = try Fixture.data("nsw_v1_fuel_prices.json")
        let qld = try Fixture.data("qld_GetFullSiteDetails.json")
        let vic = try Fixture.data("vic_fuel_prices.json")
        let rss = try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml")

        let nswTime = try best { try NSWFuelCheckAdapter.adapt(nsw, fetchedAt: Fixture.fetchedAt) }
        // v2 sends integer codes: the same payload with `"code": "972"` rewritten as `"code": 972`.
        let text = String(decoding: nsw, as: UTF8.self)
        let integerCodes = try NSRegularExpression(pattern: #"("(?:station)?code": )"(\d+)""#)
            .stringByReplacingMatches(in: text, range: NSRange(text.startIndex..., in: text), withTemplate: "$1$2")
        let nswV2 = Data(integerCodes.utf8)
        let nswV2Time = try best { try NSWFuelCheckAdapter.adapt(nswV2, fetchedAt: Fixture.fetchedAt) }
        let qldTime = try best { try InformedSourcesAdapter.sites(qld, region: .qld, fetchedAt: Fixture.fetchedAt) }
        let vicTime = try best { try FairFuelAdapter.adapt(vic, fetchedAt: Fixture.fetchedAt) }
        let rssTime = try best { try FuelWatchRSSAdapter.adapt(rss, product: .unleaded, day: .today, fetchedAt: Fixture.fetchedAt) }
        let sampleTime = try best(of: 3) { try SampleData.load() }
        print("""
        PerformanceProbe (best of runs):
          NSW /prices full  \(nsw.count) B: \(String(format: "%.1f", nswTime.ms)) ms (\(nswTime.value[0].update.prices.count) prices)
          NSW, int codes    \(nswV2.count) B: \(String(format: "%.1f", nswV2Time.ms)) ms (\(nswV2Time.value[0].update.prices.count) prices)
          QLD sites         \(qld.count) B: \(String(format: "%.1f", qldTime.ms)) ms (\(qldTime.value.update.stations.count) stations)
          VIC prices full   \(vic.count) B: \(String(format: "%.1f", vicTime.ms)) ms (\(vicTime.value.update.prices.count) prices)
          WA RSS            \(rss.count) B: \(String(format: "%.1f", rssTime.ms)) ms (\(rssTime.value.update.prices.count) prices)
          SampleData.load() all bundled: \(String(format: "%.1f", sampleTime.ms)) ms (\(sampleTime.value.current.count) current, \(sampleTime.value.history.count) history)
        """)
    }
}

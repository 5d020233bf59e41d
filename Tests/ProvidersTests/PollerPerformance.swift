import Foundation
import Fuel
import Testing
@testable import Providers

/// Manual figures, not a speed test: time and memory to adapt and merge the biggest payloads a poll brings.
/// `PETTY_PERF=1 swift test -c release --filter PollerPerformance`. Asserts nothing about time.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PETTY_PERF"] != nil, "set PETTY_PERF=1 to print figures"), .serialized)
struct PollerPerformance {
    /// `VmRSS` and `VmHWM` from `/proc/self/status`, in KiB.
    static func memory() -> (rss: Int, peak: Int) {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return (0, 0) }
        func field(_ name: String) -> Int {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name + ":") }) else { return 0 }
            return Int(line.split(separator: " ", omittingEmptySubsequences: true).dropFirst().first ?? "0") ?? 0
        }
        return (field("VmRSS"), field("VmHWM"))
    }

    static func measure(_ label: String, runs: Int = 5, _ body: () throws -> String) rethrows {
        let before = memory()
        var best = Double.infinity
        var detail = ""
        for _ in 0..<runs {
            let start = ContinuousClock.now
            detail = try body()
            let elapsed = ContinuousClock.now - start
            best = min(best, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
        }
        let after = memory()
        print("PollerPerformance \(label): best \(String(format: "%.1f", best)) ms of \(runs); VmRSS \(before.rss / 1024)→\(after.rss / 1024) MiB (Δ \((after.rss - before.rss) / 1024) MiB), VmHWM \(before.peak / 1024)→\(after.peak / 1024) MiB; \(detail)")
    }

    @Test func printParseAndMergeFigures() throws {
        let nsw = try Fixture.data("nsw_v1_fuel_prices.json")
        try Self.measure("NSW full /prices (\(nsw.count) B) adapt+merge into an empty store") {
            let store = FuelStore()
            let adapted = try NSWFuelCheckAdapter.adapt(nsw, fetchedAt: Fixture.fetchedAt)
            let report = FuelStoreSink(store: store).apply(adapted[0].update, at: Fixture.fetchedAt)
            return "\(store.current.snapshot.stationCount) stations, \(store.current.snapshot.priceCount) prices, \(report.outcome)"
        }
        let seeded = FuelStore()
        let first = try NSWFuelCheckAdapter.adapt(nsw, fetchedAt: Fixture.fetchedAt)
        _ = FuelStoreSink(store: seeded).apply(first[0].update, at: Fixture.fetchedAt)
        try Self.measure("NSW full /prices re-merge over the same 3,289 stations") {
            let adapted = try NSWFuelCheckAdapter.adapt(nsw, fetchedAt: Fixture.fetchedAt)
            let report = FuelStoreSink(store: seeded).apply(adapted[0].update, at: Fixture.fetchedAt)
            return "\(report.pricesChanged) changed"
        }

        let sites = try Fixture.data("qld_GetFullSiteDetails.json")
        let brands = try InformedSourcesAdapter.brands(try Fixture.data("qld_GetCountryBrands.json"))
        let prices = try FakeProvider.prices(forSites: sites)
        try Self.measure("QLD GetFullSiteDetails (\(sites.count) B) + GetSitesPrices (\(prices.count) B) adapt+merge") {
            let store = FuelStore()
            let stations = try InformedSourcesAdapter.sites(sites, region: .qld, brands: brands, fetchedAt: Fixture.fetchedAt)
            let adapted = try InformedSourcesAdapter.prices(prices, region: .qld, stations: stations.update.stations, fetchedAt: Fixture.fetchedAt)
            let report = FuelStoreSink(store: store).apply(adapted.update, at: Fixture.fetchedAt)
            return "\(store.current.snapshot.stationCount) stations, \(store.current.snapshot.priceCount) prices, \(report.outcome)"
        }
    }
}

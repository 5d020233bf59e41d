import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Manual timing, not a test of speed: prints what a share page costs. Run it in release:
/// `PETTY_PERF=1 swift test -c release --filter SharePagePerformanceProbe`. It asserts nothing about time.
@Suite(.enabled(if: ProcessInfo.processInfo.environment["PETTY_PERF"] != nil, "set PETTY_PERF=1 to print timings"))
struct SharePagePerformanceProbe {
    private func microseconds(per iterations: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<5 {
            let start = ContinuousClock.now
            for _ in 0..<iterations { try body() }
            let elapsed = ContinuousClock.now - start
            let us = (Double(elapsed.components.seconds) * 1e6 + Double(elapsed.components.attoseconds) / 1e12) / Double(iterations)
            best = min(best, us)
        }
        return best
    }

    @Test func printSharePageTimings() throws {
        let dataset = AppTestSupport.sampleDataset
        let store = makePettyStore(dataset)
        let view = store.current
        let slot = try require(view.snapshot.slot(of: StationID(1)))
        let waSlot = try require(view.snapshot.entries.firstIndex { $0.station.state == .WA && $0.prices.contains { $0.tomorrow != nil } })
        let origin = try PublicURL(validating: "https://petty.example")
        let now = view.clocks.now(for: .wa, wall: Date())

        let build = microseconds(per: 2_000) { _ = StationSharePage.build(entry: view.snapshot.entries[slot], status: view.snapshot.status(of: .nsw), appStoreID: "1") }
        let page = StationSharePage.build(entry: view.snapshot.entries[slot], status: view.snapshot.status(of: .nsw), appStoreID: "123456789")
        let render = microseconds(per: 100_000) { _ = page.render(now: now, origin: origin) }
        let waPage = StationSharePage.build(entry: view.snapshot.entries[waSlot], status: view.snapshot.status(of: .wa), appStoreID: "123456789")
        let waRender = microseconds(per: 100_000) { _ = waPage.render(now: now, origin: origin) }
        let accept = microseconds(per: 100_000) {
            _ = MediaPreference(accept: ["text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8"])
        }

        let app = try AppTestSupport.sampleApp()
        let headers: HTTPHeaders = ["Host": "petty.example", "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8"]
        let wholeRequest = try microseconds(per: 20_000) { try app.test(.GET, "/stations/1", headers: headers) }
        let v1Request = try microseconds(per: 20_000) { try app.test(.GET, "/v1/stations/1", headers: headers) }
        print("""
        SharePagePerformanceProbe (best of 5, per call):
          build station 1 page parts (once per snapshot): \(String(format: "%.2f", build)) µs
          render station 1 (NSW, 7 prices, \(page.render(now: now, origin: origin).body.count) B): \(String(format: "%.2f", render)) µs
          render WA station with tomorrow (\(waPage.render(now: now, origin: origin).body.count) B): \(String(format: "%.2f", waRender)) µs
          Accept parse (Chrome header): \(String(format: "%.2f", accept)) µs
          in-memory request GET /stations/1 (parse + middleware + handler): \(String(format: "%.2f", wholeRequest)) µs
          in-memory request GET /v1/stations/1 for comparison: \(String(format: "%.2f", v1Request)) µs
        """)
    }
}

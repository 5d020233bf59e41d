import Foundation
import Testing

@testable import Fuel

/// Each state is judged by its own provider's clock, never one clock for all.
@Suite struct DataClocksTests {
    let wall = Fixture.date("2026-11-24T07:00:00Z")  // 15:00 Perth
    let nswCaptured = Fixture.date("2026-01-14T22:51:45Z")
    let waCaptured = Fixture.date("2026-04-21T22:00:00Z")  // 06:00 Perth, 22 Apr

    func snapshot(wa: DataSource, nsw: DataSource, waTomorrow: String? = nil) -> Snapshot {
        var snapshot = Snapshot.empty
        var registry = StationRegistry()
        let nswUpdate = Fixture.update(.nsw, count: 2, asOf: nswCaptured)
        let nswResult = snapshot.merging(nswUpdate, registry: registry, source: nsw, at: nsw == .sample ? nswCaptured : wall)
        snapshot = nswResult.snapshot
        registry = nswResult.registry
        let waAt = wa == .sample ? waCaptured : wall
        let waResult = snapshot.merging(Fixture.update(.wa, count: 2, state: .WA, asOf: waAt), registry: registry, source: wa, at: waAt)
        snapshot = waResult.snapshot
        if let waTomorrow {
            let tomorrow = ProviderUpdate(
                provider: .wa, stations: [], prices: [],
                tomorrow: [TomorrowPriceRecord(station: Fixture.key(.wa, "1"), fuel: .U91, price: PriceTenths(tenths: 1_750), day: waTomorrow)],
                asOf: waAt, isDelta: true)
            snapshot = snapshot.merging(tomorrow, registry: waResult.registry, source: wa, at: waAt).snapshot
        }
        return snapshot
    }

    @Test func waLiveWithNSWOnSamplesJudgesEachByItsOwnClock() {
        let clocks = DataClocks(snapshot: snapshot(wa: .live, nsw: .sample))
        #expect(clocks.now(for: .WA, wall: wall) == wall)
        #expect(clocks.now(for: .NSW, wall: wall) == nswCaptured)
        #expect(clocks.now(for: .wa, wall: wall) == wall)
        #expect(!clocks.isFrozen(.wa))
        #expect(clocks.isFrozen(.nsw))
    }

    @Test func waOnSamplesWithNSWLiveIsTheMirrorImage() {
        let clocks = DataClocks(snapshot: snapshot(wa: .sample, nsw: .live))
        #expect(clocks.now(for: .WA, wall: wall) == waCaptured)
        #expect(clocks.now(for: .NSW, wall: wall) == wall)
        #expect(clocks.now(for: .ACT, wall: wall) == wall)
    }

    @Test func aWASampleHoldingTomorrowsPricesWasRecordedAfterTheirPublication() {
        let clocks = DataClocks(snapshot: snapshot(wa: .sample, nsw: .sample, waTomorrow: "2026-04-23"))
        #expect(clocks.now(for: .WA, wall: wall) == WATradingDay.publicationInstant(forTradingDay: CalendarDay("2026-04-23")!))
        #expect(clocks.now(for: .NSW, wall: wall) == nswCaptured)
    }

    @Test func aStateNobodyServesFollowsTheWallClock() {
        let clocks = DataClocks(snapshot: snapshot(wa: .sample, nsw: .sample))
        #expect(clocks.now(for: .VIC, wall: wall) == wall)
        #expect(clocks.now(for: .NT, wall: wall) == wall)
    }
}

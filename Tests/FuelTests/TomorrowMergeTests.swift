import Foundation
import Testing

@testable import Fuel

@Suite struct TomorrowMergeTests {
    let morning = Fixture.date("2026-01-15T01:00:00Z")  // 09:00 Perth
    let afternoon = Fixture.date("2026-01-15T06:40:00Z")  // 14:40 Perth

    func today() -> MergeResult {
        Fixture.merge(Fixture.update(.wa, count: 3, tenths: 1_800, state: .WA, asOf: morning), at: morning)
    }

    func tomorrow(_ pairs: [(String, Int)], day: String = "2026-01-16") -> ProviderUpdate {
        ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: pairs.map {
                TomorrowPriceRecord(station: Fixture.key(.wa, $0.0), fuel: .U91, price: PriceTenths(tenths: $0.1), day: day)
            },
            asOf: afternoon)
    }

    @Test func aTomorrowOnlyUpdateAttachesPricesWithoutTouchingToday() {
        let first = today()
        let result = Fixture.merge(tomorrow([("1", 1_700), ("2", 1_950)]), into: first.snapshot, registry: first.registry, at: afternoon)
        #expect(result.report.outcome == .applied)
        #expect(result.report.tomorrowPrices == 2)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_801))
        #expect(result.snapshot[1]?.price(of: .U91)?.tomorrow == TomorrowPrice(price: PriceTenths(tenths: 1_700), day: "2026-01-16"))
        #expect(result.snapshot[3]?.price(of: .U91)?.tomorrow == nil)
        #expect(result.snapshot.status(of: .wa)?.asOf == morning)
    }

    @Test func aTodayFullUpdateKeepsTomorrowPricesAlreadyHeld() {
        let first = today()
        let withTomorrow = Fixture.merge(tomorrow([("1", 1_700)]), into: first.snapshot, registry: first.registry, at: afternoon)
        let again = Fixture.merge(
            Fixture.update(.wa, count: 3, tenths: 1_800, state: .WA, asOf: afternoon), into: withTomorrow.snapshot,
            registry: withTomorrow.registry, at: afternoon)
        #expect(again.snapshot[1]?.price(of: .U91)?.tomorrow?.price == PriceTenths(tenths: 1_700))
    }

    @Test func tomorrowOutliersAreDropped() {
        let first = today()
        let result = Fixture.merge(tomorrow([("1", 99_999), ("2", 1_700)]), into: first.snapshot, registry: first.registry, at: afternoon)
        #expect(result.report.rejectedOutliers == 1)
        #expect(result.snapshot[1]?.price(of: .U91)?.tomorrow == nil)
    }
}

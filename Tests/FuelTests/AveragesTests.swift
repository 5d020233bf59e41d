import Foundation
import Testing

@testable import Fuel

@Suite struct AveragesTests {
    let asOf = Fixture.date("2026-01-15T00:00:00Z")

    /// The 30-day window (`PricePolicy.currentWithinDays`) at its edge: a price set exactly 30 days before its
    /// provider's as-of counts, one set 31 days before is stale and left out of the averages.
    @Test func aPriceCountsAtExactly30DaysAndIsStaleAt31() throws {
        let day: TimeInterval = 86_400
        let update = ProviderUpdate(
            provider: .vic, stations: ["30", "31"].map { Fixture.station(.vic, $0, state: .VIC) },
            prices: [
                Fixture.price(.vic, "30", 1_800, at: asOf.addingTimeInterval(-30 * day)),
                Fixture.price(.vic, "31", 1_900, at: asOf.addingTimeInterval(-31 * day)),
            ],
            asOf: asOf)
        let snapshot = Fixture.merge(update).snapshot
        let judge = PriceJudge(snapshot: snapshot)
        func standing(_ id: String) throws -> PriceStanding {
            let entry = try #require(snapshot.entries.first { $0.station.key == Fixture.key(.vic, id) })
            return judge.standing(of: try #require(entry.prices.first), at: entry.station)
        }
        #expect(try standing("30") == .counts)
        #expect(try standing("31") == .stale)
        let u91 = try #require(Averages(snapshot: snapshot)[.VIC, .U91])
        #expect(u91.stationCount == 1)
        #expect(u91.average == 180)
    }

    @Test func averagesArePerStateAndFuel() {
        let update = Fixture.twoStatesUpdate(asOf: asOf)
        let averages = Averages(snapshot: Fixture.merge(update).snapshot)
        let u91 = averages[.NSW, .U91]
        #expect(u91?.average == 185.25)
        #expect(u91?.averagePrice == PriceTenths(tenths: 1_853))
        #expect(u91?.min == PriceTenths(tenths: 1_800))
        #expect(u91?.max == PriceTenths(tenths: 1_905))
        #expect(u91?.stationCount == 2)
        #expect(averages[.NSW, .DL]?.stationCount == 1)
        #expect(averages[.ACT, .U91]?.average == 170)
        #expect(averages[.VIC, .U91] == nil)
        #expect(averages.states == [.NSW, .ACT])
    }

    @Test func pricesMoreThanSevenDaysOlderThanTheProvidersAsOfAreLeftOut() {
        let update = ProviderUpdate(
            provider: .nsw, stations: ["1", "2", "3"].map { Fixture.station(.nsw, $0) },
            prices: [
                Fixture.price(.nsw, "1", 1_800, at: asOf.addingTimeInterval(-7 * 86_400)),
                Fixture.price(.nsw, "2", 1_000, at: asOf.addingTimeInterval(-7 * 86_400 - 1)),
                Fixture.price(.nsw, "3", 1_900, at: asOf.addingTimeInterval(-3_600)),
            ],
            asOf: asOf)
        let average = Averages(snapshot: Fixture.merge(update).snapshot)[.NSW, .U91]
        #expect(average?.stationCount == 2)
        #expect(average?.min == PriceTenths(tenths: 1_800))
        #expect(average?.average == 185)
    }

    @Test func tomorrowPricesDoNotFeedAverages() {
        let first = Fixture.merge(Fixture.update(.wa, count: 2, tenths: 1_800, state: .WA, asOf: asOf))
        let tomorrow = ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: [TomorrowPriceRecord(station: Fixture.key(.wa, "1"), fuel: .U91, price: PriceTenths(tenths: 1_500), day: "2026-01-16")],
            asOf: asOf)
        let merged = Fixture.merge(tomorrow, into: first.snapshot, registry: first.registry)
        #expect(Averages(snapshot: merged.snapshot)[.WA, .U91]?.min == PriceTenths(tenths: 1_801))
    }
}

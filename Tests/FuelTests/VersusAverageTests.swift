import Foundation
import Testing

@testable import Fuel

@Suite struct VersusAverageTests {
    let asOf = Fixture.date("2026-01-15T00:00:00Z")

    @Test func eachPriceIsComparedWithItsStatesAverageForTheFuel() throws {
        let update = Fixture.twoStatesUpdate(asOf: asOf)
        let index = FuelIndex(snapshot: Fixture.merge(update).snapshot)
        func slot(_ id: String) throws -> Int {
            try #require(index.snapshot.entries.firstIndex { $0.station.key == Fixture.key(.nsw, id) })
        }
        // NSW U91 average 185.25: 180.0 is 5.25 below, 190.5 is 5.25 above; ACT is its own state.
        #expect(index.versusAverage(.U91, slot: try slot("1")) == -5.25)
        #expect(index.versusAverage(.U91, slot: try slot("2")) == 5.25)
        #expect(index.versusAverage(.DL, slot: try slot("2")) == 0)
        #expect(index.versusAverage(.U91, slot: try slot("3")) == 0)
        #expect(index.versusAverage(.DL, slot: try slot("1")) == nil)
        #expect(VersusAverage.rounded(-5.25) == -5.3)
        #expect(VersusAverage.rounded(-0.04) == 0)
        #expect(VersusAverage.rounded(-0.04).sign == .plus)
    }

    @Test func staleAndImplausiblePricesAreNotCompared() throws {
        // QLD: a full feed there does not vouch for old prices (NSW's does: `PricePolicy.fullFeedConfirms`).
        let update = ProviderUpdate(
            provider: .qld, stations: ["1", "2", "3", "4"].map { Fixture.station(.qld, $0) },
            prices: [
                Fixture.price(.qld, "1", 1_800, at: asOf), Fixture.price(.qld, "2", 1_900, at: asOf),
                Fixture.price(.qld, "3", 1_850, at: asOf.addingTimeInterval(-60 * 86_400)),
                Fixture.price(.qld, "4", 3_500, at: asOf),
            ],
            asOf: asOf)
        let index = FuelIndex(snapshot: Fixture.merge(update).snapshot)
        let versus = index.snapshot.entries.indices.map { index.versusAverage(.U91, slot: $0) }
        let keys = index.snapshot.entries.map(\.station.key)
        let byKey = Dictionary(uniqueKeysWithValues: zip(keys, versus))
        #expect(byKey[Fixture.key(.qld, "1")]! == -5)
        #expect(byKey[Fixture.key(.qld, "2")]! == 5)
        #expect(byKey[Fixture.key(.qld, "3")]! == nil)
        #expect(byKey[Fixture.key(.qld, "4")]! == nil)
    }

    /// Issue 48 §7: `vs_average` is the price minus the average as served (to the hundredth), rounded to the tenth with
    /// halves away from zero: 189.9 against 190.046 (served 190.05) is -0.15, so -0.2, never the -0.1 the unrounded
    /// average gives.
    @Test func theDifferenceIsTakenFromTheServedAverage() throws {
        let average = FuelAverage(
            state: .NSW, fuel: .U91, region: nil, average: 190.046, median: 190, min: PriceTenths(tenths: 1_800),
            max: PriceTenths(tenths: 2_000), stationCount: 3)
        let difference = try #require(VersusAverage.difference(PriceTenths(tenths: 1_899), average: average))
        #expect(VersusAverage.rounded(difference) == -0.2)
        #expect(VersusAverage.rounded(try #require(VersusAverage.difference(PriceTenths(tenths: 1_901), average: average))) == 0.1)
        #expect(VersusAverage.rounded(0.25) == 0.3 && VersusAverage.rounded(-0.25) == -0.3 && VersusAverage.rounded(-0.04) == 0)
    }
}

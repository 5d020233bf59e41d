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
}

import Foundation
import Testing

@testable import Fuel

@Suite struct StationRegistryTests {
    @Test func newKeysGetConsecutiveIdsStartingAtOne() {
        var registry = StationRegistry()
        #expect(registry.assign(Fixture.key(.nsw, "a")) == 1)
        #expect(registry.assign(Fixture.key(.nsw, "b")) == 2)
        #expect(registry.assign(Fixture.key(.wa, "a")) == 3)
    }

    @Test func aKnownKeyKeepsItsId() {
        var registry = StationRegistry()
        let first = registry.assign(Fixture.key(.qld, "7"))
        _ = registry.assign(Fixture.key(.qld, "8"))
        #expect(registry.assign(Fixture.key(.qld, "7")) == first)
        #expect(registry.count == 2)
    }

    @Test func sameCodeAtTwoProvidersGetsTwoIds() {
        var registry = StationRegistry()
        #expect(registry.assign(Fixture.key(.nsw, "100")) != registry.assign(Fixture.key(.tas, "100")))
    }

    @Test func reloadingFromEncodedDataKeepsIdsAndContinuesNumbering() throws {
        var registry = StationRegistry()
        for code in ["x", "y", "z"] { _ = registry.assign(Fixture.key(.sa, code)) }
        let data = try JSONEncoder().encode(registry)
        var reloaded = try JSONDecoder().decode(StationRegistry.self, from: data)
        #expect(reloaded == registry)
        #expect(reloaded.id(for: Fixture.key(.sa, "y")) == 2)
        #expect(reloaded.assign(Fixture.key(.sa, "new")) == 4)
    }

    @Test func idsOfRemovedStationsAreNeverReused() throws {
        // Station 2 disappears from every feed; the registry still remembers it and a newcomer gets 4.
        var registry = StationRegistry()
        for code in ["1", "2", "3"] { _ = registry.assign(Fixture.key(.nsw, code)) }
        let merged = Fixture.merge(Fixture.update(.nsw, count: 3), registry: registry)
        let shrunk = ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "1"), Fixture.station(.nsw, "3"), Fixture.station(.nsw, "4")],
            prices: ["1", "3", "4"].map { Fixture.price(.nsw, $0, 1_900) }, asOf: Fixture.now)
        var result = Fixture.merge(shrunk, into: merged.snapshot, registry: merged.registry)
        for _ in 1..<FeedPolicy.absencesBeforeRemoval {
            result = Fixture.merge(shrunk, into: result.snapshot, registry: result.registry)
        }
        #expect(result.snapshot.station(2) == nil)
        #expect(result.snapshot.entries.map(\.id) == [1, 3, 4])
        let back = Fixture.merge(Fixture.update(.nsw, count: 4), into: result.snapshot, registry: result.registry)
        #expect(back.snapshot.station(2)?.sourceID == "2")
    }

    @Test func decodingRejectsDuplicateIds() {
        let json = #"{"lastAssigned":2,"stations":[{"id":1,"provider":"nsw","sourceID":"a"},{"id":1,"provider":"nsw","sourceID":"b"}]}"#
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(StationRegistry.self, from: Data(json.utf8))
        }
    }

    @Test func decodingRaisesLastAssignedToTheHighestId() throws {
        let json = #"{"lastAssigned":1,"stations":[{"id":5,"provider":"wa","sourceID":"a"}]}"#
        var registry = try JSONDecoder().decode(StationRegistry.self, from: Data(json.utf8))
        #expect(registry.assign(Fixture.key(.wa, "b")) == 6)
    }

    @Test func reconcilingAdoptsTheIdsOfASnapshotRestoredWithoutItsRegistry() {
        let merged = Fixture.merge(Fixture.update(.vic, count: 3))
        var registry = StationRegistry().reconciled(with: merged.snapshot)
        #expect(registry.id(for: Fixture.key(.vic, "3")) == 3)
        #expect(registry.assign(Fixture.key(.vic, "4")) == 4)
    }
}

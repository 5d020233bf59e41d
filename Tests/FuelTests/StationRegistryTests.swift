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
        for round in 1..<FeedPolicy.absencesBeforeRemoval {
            let at = Fixture.now.addingTimeInterval(FeedPolicy.minimumAbsence * Double(round) / Double(FeedPolicy.absencesBeforeRemoval - 1))
            result = Fixture.merge(shrunk, into: result.snapshot, registry: result.registry, at: at)
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

@Suite struct StationRegistryAliasTests {
    @Test func aliasesPersistAndAnOldFileLoadsWithoutThem() throws {
        var registry = StationRegistry()
        let id = registry.assign(Fixture.key(.wa, "site-3290"))
        let added = registry.alias(Fixture.key(.wa, "rss:-31.9500,116.0100"), to: id)
        let ownerAsAlias = registry.alias(Fixture.key(.wa, "site-3290"), to: id)
        let unassigned = registry.alias(Fixture.key(.wa, "rss:x"), to: StationID(99))
        #expect(added)
        #expect(!ownerAsAlias)  // an owner is never an alias
        #expect(!unassigned)  // never assigned
        let data = try JSONEncoder().encode(registry)
        #expect(String(decoding: data, as: UTF8.self).contains("\"aliases\""))
        let decoded = try JSONDecoder().decode(StationRegistry.self, from: data)
        #expect(decoded == registry)
        let old = #"{"lastAssigned":1,"stations":[{"id":1,"provider":"wa","sourceID":"site-3290"}]}"#
        let loaded = try JSONDecoder().decode(StationRegistry.self, from: Data(old.utf8))
        #expect(loaded.aliases.isEmpty && loaded.id(for: Fixture.key(.wa, "site-3290")) == StationID(1))
    }

    @Test func aStationUnderANewKeyWithinFiftyMetresKeepsItsID() {
        let first = Fixture.merge(ProviderUpdate(
            provider: .wa, stations: [Fixture.station(.wa, "rss:a", state: .WA, latitude: -31.95, longitude: 115.86),
                                      Fixture.station(.wa, "rss:b", name: "Other", brand: "BP", state: .WA, latitude: -31.9503, longitude: 115.86)],
            prices: [Fixture.price(.wa, "rss:a", 1_899), Fixture.price(.wa, "rss:b", 1_909)], asOf: Fixture.now))
        // "a" moved 4 m; "b" is 33 m from a's old place but listed under its own key: it stays itself.
        let edited = ProviderUpdate(
            provider: .wa, stations: [Fixture.station(.wa, "rss:a2", state: .WA, latitude: -31.95004, longitude: 115.86),
                                      Fixture.station(.wa, "rss:b", name: "Other", brand: "BP", state: .WA, latitude: -31.9503, longitude: 115.86)],
            prices: [Fixture.price(.wa, "rss:a2", 1_879), Fixture.price(.wa, "rss:b", 1_909)], asOf: Fixture.now)
        let second = Fixture.merge(edited, into: first.snapshot, registry: first.registry)
        let idA = first.registry.id(for: Fixture.key(.wa, "rss:a"))!
        #expect(second.snapshot.entries.count == 2)
        #expect(second.snapshot[idA]?.prices.first?.price == PriceTenths(tenths: 1_879))
        #expect(second.snapshot[idA]?.station.location.latitude == -31.95004)
        #expect(second.registry.aliasedID(for: Fixture.key(.wa, "rss:a2")) == idA)
        #expect(second.registry.lastAssigned == 2)
    }

    @Test func aDifferentSiteFarAwayGetsANewID() {
        let first = Fixture.merge(ProviderUpdate(
            provider: .wa, stations: [Fixture.station(.wa, "rss:a", state: .WA, latitude: -31.95, longitude: 115.86)],
            prices: [Fixture.price(.wa, "rss:a", 1_899)], asOf: Fixture.now))
        let elsewhere = ProviderUpdate(
            provider: .wa, stations: [Fixture.station(.wa, "rss:z", name: "Far", brand: "Shell", state: .WA, latitude: -32.5, longitude: 115.7)],
            prices: [Fixture.price(.wa, "rss:z", 1_899)], asOf: Fixture.now)
        let second = Fixture.merge(elsewhere, into: first.snapshot, registry: first.registry)
        #expect(second.registry.id(for: Fixture.key(.wa, "rss:z")) == StationID(2))
        #expect(second.registry.aliases.isEmpty)
    }
}

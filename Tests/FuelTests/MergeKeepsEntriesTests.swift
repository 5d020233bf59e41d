import Foundation
import Testing

@testable import Fuel

/// A full feed that repeats what is known keeps the known values, so what is derived from them (the change log, the
/// rendered JSON, the index's station layout) can tell nothing changed without reading every field.
@Suite struct MergeKeepsEntriesTests {
    let later = Fixture.now.addingTimeInterval(1_800)

    func feed(_ ids: [String], bump: String? = nil, at: Date) -> ProviderUpdate {
        ProviderUpdate(
            provider: .nsw, stations: ids.map { Fixture.station(.nsw, $0) },
            prices: ids.map { Fixture.price(.nsw, $0, 1_800 + Int($0)! + ($0 == bump ? 15 : 0)) }, asOf: at)
    }

    func storage(_ snapshot: Snapshot) -> UnsafePointer<StationEntry>? { snapshot.entries.withUnsafeBufferPointer { $0.baseAddress } }

    @Test func aRepeatedFeedKeepsTheVerySameEntries() {
        let ids = (1...20).map(String.init)
        let first = Fixture.merge(feed(ids, at: Fixture.now))
        let again = Fixture.merge(feed(ids, at: later), into: first.snapshot, registry: first.registry, at: later)
        #expect(again.report.outcome == .applied)
        #expect(again.snapshot.version == first.snapshot.version + 1)
        #expect(again.snapshot.status(of: .nsw)?.asOf == later)
        #expect(storage(again.snapshot) == storage(first.snapshot))
    }

    @Test func aStationMissingFromLiveFeedsIsKeptAsItWasAndSoAreTheEntries() {
        let ids = (1...20).map(String.init)
        let first = Fixture.merge(feed(ids, at: Fixture.now))
        let fewer = Array(ids.dropLast())
        let missed = Fixture.merge(feed(fewer, at: later), into: first.snapshot, registry: first.registry, at: later)
        #expect(missed.snapshot.entries.count == 20)
        #expect(missed.snapshot.status(of: .nsw)?.pendingRemoval?["20"] == 1)
        #expect(storage(missed.snapshot) == storage(first.snapshot))
    }

    @Test func aChangedPriceMakesNewEntriesAndKeepsTheOthersAsTheyWere() throws {
        let ids = (1...20).map(String.init)
        let first = Fixture.merge(feed(ids, at: Fixture.now))
        let changed = Fixture.merge(feed(ids, bump: "7", at: later), into: first.snapshot, registry: first.registry, at: later)
        #expect(storage(changed.snapshot) != storage(first.snapshot))
        let seven = try #require(changed.snapshot.entries.first { $0.station.sourceID == "7" })
        #expect(seven.price(of: .U91)?.price == PriceTenths(tenths: 1_822))
        #expect(changed.report.pricesChanged == 1)
        let others = zip(first.snapshot.entries, changed.snapshot.entries).filter { $0.0.station.sourceID != "7" }
        #expect(others.count == 19)
        #expect(others.allSatisfy { $0.0 == $0.1 })
    }
}

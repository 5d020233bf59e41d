import Foundation
import Testing

@testable import Fuel

/// A snapshot built from outside data (a leader, a file) may carry a huge id; its lookup table must not be
/// sized by it (a 2^33 id asked for a 32 GB array and aborted the process).
@Suite struct SnapshotSparseIDTests {
    func entry(_ id: Int, _ sourceID: String) -> StationEntry {
        StationEntry(station: Station(id: StationID(id), record: Fixture.station(.nsw, sourceID)), prices: [])
    }

    @Test func aHugeIDIsFoundWithoutATableSizedByIt() {
        let snapshot = Snapshot(version: 1, changedAt: nil, entries: [entry(1, "a"), entry(1 << 33, "b")], statuses: [])
        #expect(snapshot[StationID(1)]?.station.sourceID == "a")
        #expect(snapshot[StationID(1 << 33)]?.station.sourceID == "b")
        #expect(snapshot[StationID(2)] == nil)
        #expect(snapshot[StationID(-1)] == nil)
    }

    @Test func denseIDsStillResolve() {
        let snapshot = Snapshot(version: 1, changedAt: nil, entries: (1...50).map { entry($0, "s\($0)") }, statuses: [])
        #expect((1...50).allSatisfy { snapshot.slot(of: StationID($0)) == $0 - 1 })
        #expect(snapshot.slot(of: StationID(51)) == nil)
    }
}

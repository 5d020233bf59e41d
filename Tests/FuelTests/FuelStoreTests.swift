import Foundation
import Synchronization
import Testing

@testable import Fuel

@Suite struct FuelStoreTests {
    @Test func renderRunsOncePerPublishedSnapshot() {
        let calls = Atomic<Int>(0)
        let store = FuelStore(initial: Dataset()) { basis in
            calls.add(1, ordering: .relaxed)
            return "v\(basis.dataset.snapshot.version) \(basis.index.snapshot.stationCount)"
        }
        #expect(store.current.rendered == "v0 0")
        store.apply(Fixture.update(.nsw, count: 3), at: Fixture.now)
        #expect(store.current.rendered == "v1 3")
        _ = store.current
        _ = store.current
        #expect(calls.load(ordering: .relaxed) == 2)
    }

    @Test func anUpdateThatChangesNothingPublishesNothing() {
        let store = FuelStore(initial: Dataset())
        store.apply(Fixture.update(.nsw, count: 3), at: Fixture.now)
        let before = store.current
        store.rollOver(at: Fixture.now)
        #expect(store.current === before)
    }

    @Test func applyReturnsTheReportAndPublishesTheMerge() {
        let store = FuelStore(initial: Dataset())
        let report = store.apply(Fixture.update(.qld, count: 4, state: .QLD), at: Fixture.now)
        #expect(report.stationsAdded == 4)
        #expect(store.current.snapshot.stationCount == 4)
        #expect(store.current.averages[.QLD, .U91]?.stationCount == 4)
        #expect(store.current.history.points(state: .QLD, fuel: .U91).count == 1)
        #expect(store.current.index[2]?.station.sourceID == "2")
    }

    @Test func aReaderKeepsItsViewWhileAWriterReplacesIt() {
        let store = FuelStore(initial: Dataset())
        store.apply(Fixture.update(.nsw, count: 3), at: Fixture.now)
        let held = store.current
        store.apply(Fixture.update(.nsw, count: 4), at: Fixture.now)
        #expect(held.snapshot.stationCount == 3)
        #expect(store.current.snapshot.stationCount == 4)
        #expect(store.current.version == held.version + 1)
    }

    @Test func updateCanThrowWithoutPublishing() {
        struct Refused: Error {}
        let store = FuelStore(initial: Dataset())
        let before = store.current
        #expect(throws: Refused.self) {
            try store.update { (_: Dataset) throws(Refused) -> Dataset in throw Refused() }
        }
        #expect(store.current === before)
    }

    @Test func concurrentWritersAreSerialisedAndReadersSeeWholeViews() async {
        let store = FuelStore(initial: Dataset()) { basis in basis.dataset.snapshot.version }
        await withTaskGroup(of: Void.self) { group in
            for writer in 0..<4 {
                group.addTask {
                    for step in 0..<25 {
                        store.update { dataset in
                            var next = dataset
                            let snapshot = dataset.snapshot
                            next.snapshot = Snapshot(
                                version: snapshot.version + 1, changedAt: Fixture.now.addingTimeInterval(Double(writer * 100 + step)),
                                entries: snapshot.entries, statuses: snapshot.statuses)
                            return next
                        }
                    }
                }
            }
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<500 {
                        let view = store.current
                        #expect(view.rendered == view.snapshot.version)
                    }
                }
            }
        }
        #expect(store.current.version == 100)
    }
}

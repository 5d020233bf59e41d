import Foundation
import Testing

@testable import Fuel

/// Each poller merges at the instant its poll started, and FuelWatch's poll (seven products, half a second apart)
/// takes seconds, so NSW's merge can be published in between with a later instant. Whatever a snapshot publishes
/// must still come after every snapshot before it, or a cursor taken there (an app's `since`, the alert
/// evaluator's progress) skips it.
@Suite struct StampOrderTests {
    let t0 = Fixture.now

    /// NSW and WA live (20 stations each, U91 at 190.1 and up), then: the WA poll starts at t0+60, NSW's poll
    /// starts at t0+62 and is published first, and WA's merge (dated its start, t0+60) lands after it with WA
    /// station "1" down to 180.0.
    func twoPollersOutOfOrder() -> (store: FuelStore<Void>, afterNSW: SnapshotView<Void>, afterWA: SnapshotView<Void>, wa1: StationID) {
        let store = FuelStore(initial: Dataset())
        store.apply(Fixture.update(.nsw, count: 20, asOf: t0), at: t0)
        store.apply(Fixture.update(.wa, count: 20, state: .WA, asOf: t0), at: t0)
        store.apply(Fixture.update(.nsw, count: 20, tenths: 1_880, asOf: t0.addingTimeInterval(62)), at: t0.addingTimeInterval(62))
        let afterNSW = store.current
        // FuelWatch dates a price by its trading day: the others are the very same records as before.
        var wa = Fixture.update(.wa, count: 20, state: .WA, asOf: t0)
        wa.asOf = t0.addingTimeInterval(60)
        wa.prices[0] = Fixture.price(.wa, "1", 1_800, at: t0.addingTimeInterval(60))
        store.apply(wa, at: t0.addingTimeInterval(60))
        let wa1 = store.current.snapshot.entries.first { $0.station.key == Fixture.key(.wa, "1") }!.id
        return (store, afterNSW, store.current, wa1)
    }

    @Test func aPriceMergedByAPollThatStartedEarlierIsListedAfterTheMergePublishedMeanwhile() {
        let (_, afterNSW, afterWA, wa1) = twoPollersOutOfOrder()
        #expect(afterWA.version == afterNSW.version + 1)
        let since = afterNSW.snapshot.changedAt!
        #expect(afterWA.snapshot.changedAt! > since)
        let listed = afterWA.index.changes(since: since).filter { $0.station == wa1 && $0.fuel == .U91 }
        #expect(listed.map(\.price) == [PriceTenths(tenths: 1_800)])
        // Only WA's new price: NSW's prices were published with the snapshot the cursor was taken at.
        #expect(afterWA.index.changes(since: since).count == 1)
    }

    @Test func aPriceBelowCrossingMergedOutOfOrderIsDecidedOnTheNextEvaluation() {
        let (_, afterNSW, afterWA, wa1) = twoPollersOutOfOrder()
        let alert = AlertWorld.alert(1, .priceBelow, .stations([wa1]), threshold: 1_850, zone: "Australia/Perth")
        var evaluator = AlertEvaluator(index: AlertIndex([alert]))
        let outcome = evaluator.evaluate(AlertPoll(index: afterWA.index, after: afterNSW.snapshot, now: t0.addingTimeInterval(64)), states: [:])
        #expect(outcome.decisions.map(\.key) == ["a1.s\(wa1.rawValue).U91.v\(afterWA.version)"])
    }

    @Test func aMemberWhoseClockIsBehindStampsAfterTheSnapshotItTookOver() {
        // The leader's snapshot, copied by a follower whose clock is an hour behind; it takes over and merges.
        let store = FuelStore(initial: Dataset())
        // Prices dated the trading day's start, before both clocks.
        let dayStart = t0.addingTimeInterval(-7_200)
        var leaders = Fixture.update(.wa, count: 20, state: .WA, asOf: dayStart)
        leaders.asOf = t0
        store.apply(leaders, at: t0)
        let inherited = store.current.snapshot.changedAt!
        let behind = t0.addingTimeInterval(-3_600)
        var wa = Fixture.update(.wa, count: 20, state: .WA, asOf: dayStart)
        wa.asOf = behind
        wa.prices[0] = Fixture.price(.wa, "1", 1_800, at: behind)
        store.apply(wa, at: behind)
        #expect(store.current.index.changes(since: inherited).map(\.price) == [PriceTenths(tenths: 1_800)])
        #expect(store.current.snapshot.changedAt == inherited.addingTimeInterval(Snapshot.stampStep))
        // The provider's clock stays the member's: `asOf` is the feed's, not the stamp.
        #expect(store.current.snapshot.status(of: .wa)?.asOf == behind)
    }

    @Test func aMergeOnTimeIsStampedAtItsInstant() {
        let store = FuelStore(initial: Dataset())
        store.apply(Fixture.update(.nsw, count: 20, asOf: t0), at: t0)
        store.apply(Fixture.update(.nsw, count: 20, tenths: 1_880, asOf: t0.addingTimeInterval(60)), at: t0.addingTimeInterval(60))
        #expect(store.current.snapshot.changedAt == t0.addingTimeInterval(60))
        #expect(store.current.snapshot.entries.allSatisfy { $0.prices.allSatisfy { $0.seenAt == t0.addingTimeInterval(60) } })
    }
}

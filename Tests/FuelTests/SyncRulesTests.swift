import Foundation
import Testing

@testable import Fuel

/// The rules incremental sync rests on, one at a time: the cursor's order and token, what "after" means, how long
/// removals are kept and what a cursor older than that gets, what replaces a tombstone, and which cursors were
/// never issued.
@Suite struct SyncRulesTests {
    static let start = Fixture.date("2026-01-15T02:00:00Z")

    /// Stations "1" to "3" of NSW, each selling U91 and station "2" also DL.
    static func full(at instant: Date = start) -> ProviderUpdate {
        ProviderUpdate(
            provider: .nsw,
            stations: ["1", "2", "3"].map { Fixture.station(.nsw, $0) },
            prices: ["1", "2", "3"].map { Fixture.price(.nsw, $0, 1_900, at: instant) } + [Fixture.price(.nsw, "2", 2_000, fuel: .DL, at: instant)],
            asOf: instant)
    }

    /// The same registry's stations "1" and "2" only, station "2" without DL: built apart rather than merged, since
    /// merging only removes after several absent feeds (`FeedPolicy`), which is not the rule under test here.
    static func smaller(_ registry: StationRegistry, at instant: Date) -> Snapshot {
        let update = ProviderUpdate(
            provider: .nsw, stations: ["1", "2"].map { Fixture.station(.nsw, $0) },
            prices: ["1", "2"].map { Fixture.price(.nsw, $0, 1_900, at: instant) }, asOf: instant)
        return Fixture.merge(update, registry: registry, at: instant).snapshot
    }

    @Test func atOneInstantTheStationComesBeforeItsFuelsAndLowerIdsFirst() {
        let t = Self.start
        let station1 = ChangeCursor(changedAt: t, station: 1, fuel: nil)
        let u91At1 = ChangeCursor(changedAt: t, station: 1, fuel: .U91)
        let dlAt1 = ChangeCursor(changedAt: t, station: 1, fuel: .DL)
        let station2 = ChangeCursor(changedAt: t, station: 2, fuel: nil)
        let later = ChangeCursor(changedAt: t.addingTimeInterval(0.001), station: 1, fuel: nil)
        let ordered = [station1, u91At1, dlAt1, station2, later]
        for (i, a) in ordered.enumerated() {
            for (j, b) in ordered.enumerated() {
                #expect(a.precedes(b) == (i < j), "\(i) precedes \(j)")
            }
        }
        // `since=t`: after every change at t, before any later one.
        #expect(ordered.dropLast().allSatisfy { $0.precedes(.after(instant: t)) })
        #expect(ChangeCursor.after(instant: t).precedes(later))
    }

    @Test func aTokenNamesItsPositionExactlyAndGarbageIsRefused() {
        let odd = Date(timeIntervalSinceReferenceDate: 790_135_199.123_456_7)
        for cursor in [ChangeCursor(changedAt: odd, station: 5158, fuel: .P98), ChangeCursor(changedAt: odd, station: 1, fuel: nil)] {
            #expect(ChangeCursor(token: cursor.token) == cursor)
        }
        for bad in ["", "c2", "c3.0.1.U91", "c2.zz.1.U91", "c2.0.0.U91", "c2.0.-1.U91", "c2.0.1.XYZ", "c2.0.1.U91.x",
                    "c2.00000000000000000.1.U91", "c2.0.1234567890123456789.U91"] {
            #expect(ChangeCursor(token: bad) == nil, "\(bad)")
        }
    }

    @Test func aPageStartsStrictlyAfterItsCursor() {
        let merged = Fixture.merge(Self.full())
        let feed = ChangeFeed(index: FuelIndex(snapshot: merged.snapshot), log: ChangeLog(restartingAt: merged.snapshot))
        #expect(feed.events.count == 3 + 4)
        for (position, event) in feed.events.enumerated() {
            let rest = feed.events(after: ChangeCursor(after: event))
            #expect(Array(rest) == Array(feed.events[(position + 1)...]))
        }
        #expect(feed.events(after: feed.end).isEmpty)
    }

    @Test func removalsAreKeptForTheRetentionAndACursorOlderThanADroppedOneIsRefused() {
        let first = Fixture.merge(Self.full())
        let removedAt = Self.start.addingTimeInterval(3_600)
        let log = ChangeLog(restartingAt: first.snapshot)
        let afterRemoval = log.recording(from: first.snapshot, to: Self.smaller(first.registry, at: removedAt), at: removedAt)
        #expect(Set(afterRemoval.removals.map { "\($0.station)/\($0.fuel?.rawValue ?? "station")" }) == ["2/DL", "3/station"])
        let beforeTheRemoval = ChangeCursor(changedAt: removedAt.addingTimeInterval(-1), station: 1, fuel: nil)
        #expect(afterRemoval.accepts(beforeTheRemoval))

        let same = Self.smaller(first.registry, at: removedAt)
        let justInside = afterRemoval.recording(from: same, to: same, at: removedAt.addingTimeInterval(ChangeLog.retention))
        #expect(justInside.removals.count == 2)
        #expect(justInside.accepts(beforeTheRemoval))

        let justPast = afterRemoval.recording(from: same, to: same, at: removedAt.addingTimeInterval(ChangeLog.retention + 0.001))
        #expect(justPast.removals.isEmpty)
        #expect(!justPast.accepts(beforeTheRemoval))
        // A cursor at or after the newest dropped removal missed nothing.
        let last = afterRemoval.removals.last!
        #expect(justPast.accepts(ChangeCursor(changedAt: last.at, station: last.station, fuel: last.fuel)))
        #expect(justPast.accepts(ChangeCursor.after(instant: removedAt)))
    }

    @Test func whatComesBackReplacesItsTombstone() {
        let first = Fixture.merge(Self.full())
        let removedAt = Self.start.addingTimeInterval(3_600)
        let smaller = Self.smaller(first.registry, at: removedAt)
        let removed = ChangeLog(restartingAt: first.snapshot).recording(from: first.snapshot, to: smaller, at: removedAt)
        #expect(removed.removals.count == 2)
        let backAt = removedAt.addingTimeInterval(3_600)
        let back = Fixture.merge(Self.full(at: backAt), registry: first.registry, at: backAt).snapshot
        let revived = removed.recording(from: smaller, to: back, at: backAt)
        #expect(revived.removals.isEmpty)
        #expect(revived.stations[StationID(3)] == backAt)
    }

    @Test func aPageThatReplacesAStationLeavesOutThatStationsPriceItems() {
        let merged = Fixture.merge(Self.full())
        let feed = ChangeFeed(index: FuelIndex(snapshot: merged.snapshot), log: ChangeLog(restartingAt: merged.snapshot))
        let whole = ChangesPage(feed: feed, start: nil, state: nil, fuel: nil, limit: 100)
        #expect(whole.items.allSatisfy { if case .station = $0.kind { true } else { false } })
        #expect(whole.items.count == 3)
        // A page ending before a station's item keeps the price items it holds.
        let prices = feed.events.filter { $0.fuel != nil }
        let start = prices.first.map { ChangeCursor(changedAt: $0.changedAt.addingTimeInterval(-1), station: 1, fuel: nil) }
        let page = ChangesPage(feed: feed, start: start, state: nil, fuel: nil, limit: 100)
        #expect(page.items.count <= feed.events.count)
    }

    @Test func aCursorIsFromTheFutureOnlyPastTheFeedTheClockAndTheTolerance() {
        let merged = Fixture.merge(Self.full())
        let feed = ChangeFeed(index: FuelIndex(snapshot: merged.snapshot), log: ChangeLog(restartingAt: merged.snapshot))
        let wall = Self.start.addingTimeInterval(86_400)
        let edge = wall.addingTimeInterval(ChangeHorizon.tolerance)
        #expect(!ChangeHorizon.isFromTheFuture(ChangeCursor(changedAt: edge, station: 1, fuel: nil), feed: feed, wall: wall))
        #expect(ChangeHorizon.isFromTheFuture(ChangeCursor(changedAt: edge.addingTimeInterval(0.001), station: 1, fuel: nil), feed: feed, wall: wall))
        #expect(ChangeHorizon.isFromTheFuture(ChangeCursor(changedAt: .distantFuture, station: 1, fuel: nil), feed: feed, wall: .distantFuture))
    }
}

import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// The one memo's one rule: an entry answers while its snapshot is current and its freshness holds by the clock;
/// the oldest goes first when it is full; an older snapshot's value is never kept.
@Suite struct SnapshotMemoTests {
    static let t0 = Date(timeIntervalSince1970: 1_790_000_000)  // a whole second
    /// The sample cut to 50 stations per provider, still labelled sample (a live feed replaces it): the memo's rule
    /// does not depend on the data, and each test (and each new snapshot) renders all of it.
    static let dataset = FollowerHarness.liveDataset(version: 1) { _, statuses in
        for index in statuses.indices { statuses[index].source = .sample }
    }
    let store = makePettyStore(Self.dataset)

    /// Publishes a new snapshot: one more live NSW station.
    func publishNewSnapshot() {
        let before = store.current.version
        let station = StationRecord(
            key: StationKey(provider: .nsw, sourceID: "memo-\(before)"), name: "Memo Servo", brand: "Ampol", address: "1 George St",
            suburb: "Sydney", state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.87, longitude: 151.21))
        let price = PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: 1_899), updatedAt: Self.t0)
        _ = store.apply(ProviderUpdate(provider: .nsw, stations: [station], prices: [price], asOf: Self.t0), source: .live, at: Self.t0)
        #expect(store.current.version > before)
    }

    /// Builds counted by the memo for `key` at `wall`.
    final class Builds: @unchecked Sendable { var count = 0 }

    func get(
        _ memo: SnapshotMemo, _ key: String, view: PettyView? = nil, at wall: Date, _ freshness: SnapshotMemo.Freshness,
        counting builds: Builds
    ) -> String {
        memo.value(
            SnapshotMemo.Key(kind: "test", detail: key), in: view ?? store.current, wall: wall, freshness: { _ in freshness },
            bytes: { $0.utf8.count }
        ) {
            builds.count += 1
            return "\(key)#\(builds.count)"
        }
    }

    @Test func aSnapshotEntryIsBuiltOnceAndAgainForANewSnapshot() {
        let memo = SnapshotMemo()
        let builds = Builds()
        #expect(get(memo, "a", at: Self.t0, .snapshot, counting: builds) == "a#1")
        #expect(get(memo, "a", at: Self.t0.addingTimeInterval(86_400), .snapshot, counting: builds) == "a#1")
        publishNewSnapshot()
        #expect(get(memo, "a", at: Self.t0.addingTimeInterval(86_400), .snapshot, counting: builds) == "a#2")
    }

    @Test func aClockJudgedEntryHoldsForItsSecondOnly() {
        let memo = SnapshotMemo()
        let builds = Builds()
        #expect(get(memo, "a", at: Self.t0, .second, counting: builds) == "a#1")
        #expect(get(memo, "a", at: Self.t0.addingTimeInterval(0.999), .second, counting: builds) == "a#1")
        #expect(get(memo, "a", at: Self.t0.addingTimeInterval(1), .second, counting: builds) == "a#2")
    }

    @Test func anEntryIsNeverServedToAnEarlierClock() {
        let memo = SnapshotMemo()
        let builds = Builds()
        #expect(get(memo, "a", at: Self.t0, .snapshot, counting: builds) == "a#1")
        #expect(get(memo, "a", at: Self.t0.addingTimeInterval(-0.001), .snapshot, counting: builds) == "a#2")
    }

    @Test func aBoundaryEntryHoldsUntilItsBoundaryAndNotAfter() {
        let memo = SnapshotMemo()
        let builds = Builds()
        let boundary = Self.t0.addingTimeInterval(3_600)
        let untilBoundary = SnapshotMemo.Freshness.whilst { $0 < boundary }
        #expect(get(memo, "a", at: Self.t0, untilBoundary, counting: builds) == "a#1")
        #expect(get(memo, "a", at: boundary.addingTimeInterval(-0.001), untilBoundary, counting: builds) == "a#1")
        #expect(get(memo, "a", at: boundary, untilBoundary, counting: builds) == "a#2")
    }

    @Test func aFullMemoDropsItsOldestEntryFirst() {
        let memo = SnapshotMemo(limits: .init(entries: 2, bytes: 1 << 20))
        let builds = Builds()
        _ = get(memo, "a", at: Self.t0, .snapshot, counting: builds)
        _ = get(memo, "b", at: Self.t0, .snapshot, counting: builds)
        _ = get(memo, "c", at: Self.t0, .snapshot, counting: builds)
        #expect(memo.count == 2)
        #expect(get(memo, "b", at: Self.t0, .snapshot, counting: builds) == "b#2")
        #expect(get(memo, "c", at: Self.t0, .snapshot, counting: builds) == "c#3")
        #expect(get(memo, "a", at: Self.t0, .snapshot, counting: builds) == "a#4")
    }

    @Test func theByteLimitBoundsWhatIsKept() {
        let memo = SnapshotMemo(limits: .init(entries: 100, bytes: 8))
        let builds = Builds()
        _ = get(memo, "aaaa", at: Self.t0, .snapshot, counting: builds)  // "aaaa#1": 6 bytes
        _ = get(memo, "bbbb", at: Self.t0, .snapshot, counting: builds)  // 6 more: "aaaa" goes
        #expect(memo.count == 1)
        #expect(get(memo, "bbbb", at: Self.t0, .snapshot, counting: builds) == "bbbb#2")
    }

    @Test func aValueBuiltForAnOlderSnapshotIsNotKeptNorEvictsTheNewer() {
        let memo = SnapshotMemo()
        let builds = Builds()
        let old = store.current
        publishNewSnapshot()
        #expect(get(memo, "a", at: Self.t0, .snapshot, counting: builds) == "a#1")
        #expect(get(memo, "a", view: old, at: Self.t0, .snapshot, counting: builds) == "a#2")
        #expect(get(memo, "a", view: old, at: Self.t0, .snapshot, counting: builds) == "a#3")
        #expect(get(memo, "a", at: Self.t0, .snapshot, counting: builds) == "a#1")
    }

    @Test func replacingAnEntryManyTimesKeepsItsBookkeepingBounded() {
        let memo = SnapshotMemo(limits: .init(entries: 4, bytes: 1 << 20))
        let builds = Builds()
        for second in 0..<5_000 {
            _ = get(memo, "a", at: Self.t0.addingTimeInterval(Double(second)), .second, counting: builds)
        }
        #expect(builds.count == 5_000)
        #expect(memo.count == 1)
        #expect(memo.orderSlots < 3_000)
    }

    /// A response's cost counts its request target, kept as the key: 6 KB URLs with tiny bodies fill the memo's
    /// bytes as 6 KB bodies would.
    @Test func aResponsesCostCountsItsRequestTarget() throws {
        let memo = SnapshotMemo(limits: .init(entries: 1_000, bytes: 64 << 10))
        for index in 0..<40 {
            let target = "/v1/stations?q=" + String(repeating: "x", count: 6_000) + "\(index)"
            guard case .complete(let head, let body, _) = HTTPRequestParser().parse(Array("GET \(target) HTTP/1.1\r\nHost: a\r\n\r\n".utf8))
            else { Issue.record("request did not parse"); return }
            _ = memo.response(Request(head: head, body: body, peerAddress: "127.0.0.1"), in: store.current, wall: Self.t0, freshness: .snapshot) {
                Response(status: .ok, headers: ["Content-Type": "application/json"], body: Array("{}".utf8))
            }
        }
        #expect(memo.count <= 10, "\(memo.count) entries of 6 KB keys kept in 64 KB")
    }
}

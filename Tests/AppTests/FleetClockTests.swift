import Coordination
import Foundation
import Fuel
import Synchronization
import Testing
@testable import API
@testable import App

/// Followers order what they copy by the fleet's token and version, never by comparing two hosts' clocks (issue 46
/// item 2); the skew between the clocks is measured and shown.
@Suite(.serialized) struct FleetClockTests {
    typealias Harness = FollowerHarness

    static let heldAsOf = Harness.good.snapshot.statuses.compactMap(\.asOf).max()!

    /// `good` with every provider's data as of `asOf`, at `version`.
    static func dataset(version: UInt64, asOf: Date) -> Dataset {
        Harness.liveDataset(version: version) { _, statuses in
            for index in statuses.indices { statuses[index].asOf = asOf }
        }
    }

    /// A follower holding `good` at epoch 7 whose own clock reads `now`, offered `dataset` as published at `stamp`
    /// by the leader's clock.
    func offer(_ dataset: Dataset, followerClock now: Date, stamp: Date?) async throws -> FleetCopier.Outcome {
        let store = makePettyStore(Harness.good)
        let copier = FleetCopier(store: store, limits: FollowLimits(), clock: { now })
        let (first, held) = try leader(serving: Harness.good, epoch: 7, stamp: nil)
        defer { first.stop() }
        #expect(await copier.copy(held) == .applied(version: 100))
        let (leader, pointer) = try leader(serving: dataset, epoch: 7, stamp: stamp)
        defer { leader.stop() }
        return await copier.copy(pointer)
    }

    func leader(serving dataset: Dataset, epoch: Int64, stamp: Date?) throws -> (FakeLeader, DatasetPointer) {
        let leader = try FakeLeader(serving: dataset).start()
        let checksum = StoreFleetMember.checksum(try ReplicationPayload.encode(dataset))
        let url = leader.url.appendingPathComponent("internal/v1/dataset").absoluteString
        let millis = stamp.map { Int64($0.timeIntervalSince1970 * 1000) }
        return (leader, DatasetPointer(version: dataset.snapshot.version, epoch: epoch, url: url, checksum: checksum, asOf: nil, publishedMillis: millis))
    }

    /// A follower an hour slow: what the leader just polled is "an hour ahead" of it, yet it is the fleet's dataset.
    @Test func aFollowerWithASlowClockTakesWhatTheLeaderJustPublished() async throws {
        let leaderNow = Self.heldAsOf.addingTimeInterval(3_600)
        let outcome = try await offer(Self.dataset(version: 101, asOf: leaderNow), followerClock: Self.heldAsOf, stamp: leaderNow)
        #expect(outcome == .applied(version: 101))
    }

    /// Without a stamp the follower's clock is all it has: data an hour ahead of it is still refused.
    @Test func withoutAStampDataAheadOfTheFollowerIsRefused() async throws {
        let outcome = try await offer(
            Self.dataset(version: 101, asOf: Self.heldAsOf.addingTimeInterval(3_600)), followerClock: Self.heldAsOf, stamp: nil)
        guard case .refused(let why) = outcome else {
            Issue.record("not refused: \(outcome)")
            return
        }
        #expect(why.contains("ahead of this server's clock"), "\(why)")
    }

    /// A leader 5 minutes slow polls "older" data than a fast one did: the token (a newer version) orders it.
    @Test func aSlowLeadersNewerVersionIsNotRefusedAsOlderThanHeld() async throws {
        let outcome = try await offer(
            Self.dataset(version: 101, asOf: Self.heldAsOf.addingTimeInterval(-300)), followerClock: Self.heldAsOf,
            stamp: Self.heldAsOf.addingTimeInterval(-290))
        #expect(outcome == .applied(version: 101))
    }
}

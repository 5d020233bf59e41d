import Coordination
import Foundation
import Fuel
import Testing
@testable import API
@testable import App

/// A fleet follower orders published datasets by epoch first, then version (issue 24: apply a dataset "only when
/// its epoch is not older than the one held"). The rule alone (`PointerOrder`), then a follower's copier against
/// a fake leader on loopback, so what is applied is what a user would then be served.
@Suite(.serialized) struct FleetCopierEpochTests {
    typealias Harness = FollowerHarness

    static func pointer(version: UInt64, epoch: Int64, checksum: String = "fnv1a64:1", url: String = "http://127.0.0.1:9/") -> DatasetPointer {
        DatasetPointer(version: version, epoch: epoch, url: url, checksum: checksum, asOf: nil)
    }

    func order(version: UInt64, epoch: Int64, checksum: String = "fnv1a64:1", heldChecksum: String? = nil) -> PointerOrder {
        PointerOrder.of(
            Self.pointer(version: version, epoch: epoch, checksum: checksum), held: FleetFenceToken(generation: 0, revision: 7), heldVersion: 100,
            heldChecksum: heldChecksum)
    }

    // MARK: The rule (held: v100 at epoch 7)

    @Test func anOlderEpochIsRefusedHoweverHighItsVersion() {
        #expect(order(version: 101, epoch: 6) == .olderToken)
        #expect(order(version: 1_000, epoch: 6) == .olderToken)
        #expect(order(version: 101, epoch: 7) == .copy(versionMayGoBack: false), "the same epoch, one version on: copied")
    }

    @Test func withinAnEpochOnlyAHigherVersionIsNews() {
        #expect(order(version: 99, epoch: 7) == .held)
        #expect(order(version: 100, epoch: 7) == .held)
        #expect(order(version: 101, epoch: 7) == .copy(versionMayGoBack: false))
    }

    @Test func aNewerEpochIsCopiedEvenAtALowerVersion() {
        #expect(order(version: 5, epoch: 8) == .copy(versionMayGoBack: true))
        #expect(order(version: 99, epoch: 8) == .copy(versionMayGoBack: true))
        #expect(order(version: 101, epoch: 8) == .copy(versionMayGoBack: false))
    }

    @Test func aNewLeaderRepublishingTheHeldBodyIsNotDownloadedAgain() {
        #expect(order(version: 100, epoch: 8, checksum: "fnv1a64:a", heldChecksum: "fnv1a64:a") == .held)
        #expect(order(version: 100, epoch: 8, checksum: "fnv1a64:b", heldChecksum: "fnv1a64:a") == .copy(versionMayGoBack: true),
                "the same version with another body: the new epoch's is the fleet's")
        #expect(order(version: 100, epoch: 8, checksum: "fnv1a64:a", heldChecksum: nil) == .copy(versionMayGoBack: true))
    }

    // MARK: A follower's copier against a leader on loopback

    struct Follower {
        let store: PettyStore
        let copier: FleetCopier

        init() {
            store = makePettyStore(Harness.good)
            copier = FleetCopier(store: store, limits: FollowLimits())
        }

        var version: UInt64 { store.current.version }
    }

    /// A leader serving `dataset`, and the pointer it would publish for it at `epoch`.
    func leader(serving dataset: Dataset, epoch: Int64) throws -> (FakeLeader, DatasetPointer) {
        let leader = try FakeLeader(serving: dataset).start()
        let checksum = StoreFleetMember.checksum(try ReplicationPayload.encode(dataset))
        let url = leader.url.appendingPathComponent("internal/v1/dataset").absoluteString
        return (leader, Self.pointer(version: dataset.snapshot.version, epoch: epoch, checksum: checksum, url: url))
    }

    /// The follower copies v100 at epoch 7 first, as it would from the leader before a failover.
    func followerAtEpoch7() async throws -> Follower {
        let follower = Follower()
        let (first, pointer) = try leader(serving: Harness.liveDataset(version: 100), epoch: 7)
        defer { first.stop() }
        // Its own v100 from disk, at no epoch yet: the body is unknown, so it is fetched once.
        #expect(await follower.copier.copy(pointer) == .applied(version: 100))
        #expect(follower.copier.status.epoch == 7)
        return follower
    }

    @Test func aNewLeaderRepublishingTheSameBodyCostsNoDownload() async throws {
        let follower = try await followerAtEpoch7()
        let checksum = StoreFleetMember.checksum(try ReplicationPayload.encode(Harness.good))
        // Nothing listens at the pointer's URL: a download would fail.
        #expect(await follower.copier.copy(Self.pointer(version: 100, epoch: 8, checksum: checksum)) == .unchanged)
        #expect(follower.copier.status.epoch == 8)
    }

    @Test func aNewLeaderWithALowerVersionIsFollowed() async throws {
        let follower = try await followerAtEpoch7()
        let newer = Harness.liveDataset(version: 60)
        let (leader, pointer) = try leader(serving: newer, epoch: 9)
        defer { leader.stop() }
        #expect(await follower.copier.copy(pointer) == .applied(version: 60))
        let served = follower.store.current.dataset == newer  // not inside #expect: a failure would print both datasets
        #expect(served, "the new leader's dataset is served")
        #expect(follower.copier.status.epoch == 9)
        #expect(follower.copier.status.lastError == nil)
    }

    @Test func aDeposedLeaderWithAHigherVersionIsRefused() async throws {
        let follower = try await followerAtEpoch7()
        let (leader, pointer) = try leader(serving: Harness.liveDataset(version: 500), epoch: 6)
        defer { leader.stop() }
        #expect(await follower.copier.copy(pointer) == .refused("the token 0.6 (generation.epoch) is older than the 0.7 held"))
        let held = follower.store.current.dataset == Harness.good
        #expect(follower.version == 100 && held, "the held dataset is still served")
        #expect(follower.copier.status.refused == 1)
    }

    @Test func withinTheEpochALowerVersionIsNotApplied() async throws {
        let follower = try await followerAtEpoch7()
        let (leader, pointer) = try leader(serving: Harness.liveDataset(version: 60), epoch: 7)
        defer { leader.stop() }
        #expect(await follower.copier.copy(pointer) == .unchanged)
        #expect(follower.version == 100)
    }

    /// The version may go back at a newer epoch, but no other trust rule is waived.
    @Test func aNewerEpochStillPassesEveryOtherTrustRule() async throws {
        let follower = try await followerAtEpoch7()
        let sample = Harness.liveDataset(version: 60) { _, statuses in
            for index in statuses.indices { statuses[index].source = .sample }
        }
        let (leader, pointer) = try leader(serving: sample, epoch: 9)
        defer { leader.stop() }
        guard case .refused(let why) = await follower.copier.copy(pointer) else {
            Issue.record("a sample dataset replaced live data")
            return
        }
        #expect(why.contains("sample data offered in place of live data"), "\(why)")
        #expect(follower.version == 100)
    }
}

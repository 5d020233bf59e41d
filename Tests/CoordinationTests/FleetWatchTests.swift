import Foundation
import TestSupport
import Testing
@testable import Coordination

/// The fleet's keys watched on one `/v3/watch` stream held open across rounds, against the fake gateway's streamed
/// watch: a publication reaches a follower as an event, with neither a read nor a new watch; a dropped stream is
/// opened again from the revision after its last event; a compacted revision costs one read of the whole fleet.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FleetWatchTests {
    let tests = FleetCoordinatorTests()

    /// A leader `a` and a follower `b` registered and at rest (b's next wait watches).
    func fleet(_ etcd: FakeEtcd) async -> (a: FleetCoordinator, b: FleetCoordinator) {
        let a = tests.coordinator(etcd, name: "a"), b = tests.coordinator(etcd, name: "b")
        await a.cycle()
        await b.cycle()
        await b.cycle()
        return (a, b)
    }

    /// Writes the pointer as the leader would, at the current epoch; the revision it was written at.
    @discardableResult
    func publish(_ etcd: FakeEtcd, version: UInt64) throws -> Int64 {
        let epoch = try #require(etcd.entry("/t/leader")).createRevision
        let pointer = DatasetPointer(version: version, epoch: epoch, url: "http://a:8080/internal/v1/dataset", checksum: "fnv1a64:\(version)", asOf: nil)
        etcd.put("/t/dataset", String(decoding: FleetJSON.encode(pointer), as: UTF8.self))
        return try #require(etcd.entry("/t/dataset")).modRevision
    }

    func count(_ etcd: FakeEtcd, _ call: String) -> Int { etcd.calls.filter { $0 == call }.count }

    /// A leader and a follower that took version 6 from an event on its watch, whose stream the gateway then
    /// dropped; the revision version 6 was written at. The caller keeps the leader alive (its lease holds the key).
    func followerAfterADroppedWatch(_ etcd: FakeEtcd) async throws -> (a: FleetCoordinator, b: FleetCoordinator, seen: Int64) {
        let (a, b) = await fleet(etcd)
        async let first = b.awaitChange()
        let seen = try publish(etcd, version: 6)
        #expect(await first)
        await b.cycle()
        etcd.dropWatches()
        return (a, b, seen)
    }

    @Test func publicationsReachAFollowerOnTheWatchItAlreadyHolds() async throws {
        let etcd = try FakeEtcd(watch: true).start()
        defer { etcd.stop() }
        let (_, b) = await fleet(etcd)
        let reads = count(etcd, "kv/range")
        for version in UInt64(6)...8 {
            async let changed = b.awaitChange()
            try publish(etcd, version: version)
            #expect(await changed)
            await b.cycle()
            #expect(b.status.published?.version == version)
        }
        #expect(count(etcd, "watch") == 1)
        #expect(count(etcd, "kv/range") == reads)
    }

    @Test func aDroppedWatchIsOpenedAgainAfterItsLastEvent() async throws {
        let etcd = try FakeEtcd(watch: true).start()
        defer { etcd.stop() }
        let (a, b, seen) = try await followerAfterADroppedWatch(etcd)
        defer { withExtendedLifetime(a) {} }
        try publish(etcd, version: 7)
        #expect(await b.awaitChange())
        await b.cycle()
        #expect(b.status.published?.version == 7)
        let started = try #require(etcd.watchStarts.first)
        #expect(started <= seen)
        #expect(etcd.watchStarts == [started, seen + 1])
    }

    @Test func aCompactedRevisionCostsOneReadOfTheWholeFleetThenAWatchAfterIt() async throws {
        let etcd = try FakeEtcd(watch: true).start()
        defer { etcd.stop() }
        let (a, b, seen) = try await followerAfterADroppedWatch(etcd)
        defer { withExtendedLifetime(a) {} }
        try publish(etcd, version: 7)
        let compacted = try publish(etcd, version: 8)
        etcd.compact()
        let reads = count(etcd, "kv/range")
        #expect(await b.awaitChange())
        await b.cycle()
        #expect(b.status.published?.version == 8)
        #expect(count(etcd, "kv/range") == reads + 1)
        #expect(b.watch.resumesAt == compacted + 1)
        async let next = b.awaitChange()
        try publish(etcd, version: 9)
        #expect(await next)
        await b.cycle()
        #expect(b.status.published?.version == 9)
        #expect(etcd.watchStarts.dropFirst() == [seen + 1, compacted + 1])
        #expect(count(etcd, "kv/range") == reads + 1)
    }

    /// etcd rebuilt from nothing under a held watch: reopened from its revision, the watch finds another cluster at
    /// an older revision, so the member reads the fleet again and watches after that read.
    @Test func aWatchReopenedOnARebuiltEtcdReadsTheFleetAgain() async throws {
        let etcd = try FakeEtcd(watch: true).start()
        defer { etcd.stop() }
        let (a, b, seen) = try await followerAfterADroppedWatch(etcd)
        defer { withExtendedLifetime(a) {} }
        etcd.rebuild(clusterID: "2")
        let reads = count(etcd, "kv/range")
        #expect(await b.awaitChange())
        #expect(b.watch.resumesAt == nil)
        await b.cycle()
        #expect(count(etcd, "kv/range") > reads)
        #expect(try #require(b.watch.resumesAt) < seen)
    }

    /// A deletion on the watch (the leader's key gone with its lease) reaches the follower as one: it campaigns.
    @Test func theLeaderKeyDeletedOnTheWatchLetsTheFollowerCampaign() async throws {
        let etcd = try FakeEtcd(watch: true).start()
        defer { etcd.stop() }
        let (_, b) = await fleet(etcd)
        async let changed = b.awaitChange()
        etcd.delete("/t/leader")
        #expect(await changed)
        await b.cycle()
        #expect(b.mayAct())
    }
}

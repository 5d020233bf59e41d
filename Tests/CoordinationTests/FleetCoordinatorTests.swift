import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Coordination

/// The coordinator's rounds (`cycle()`) against the fake gateway, on an injected monotonic clock.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FleetCoordinatorTests {
    final class Member: FleetMember {
        let version = Mutex<UInt64>(5)
        let adopted = Mutex<Int64>(0)
        /// Runs between the coordinator's read of the fleet and its guarded publication.
        let beforePublication = Mutex<(@Sendable () -> Void)?>(nil)
        let live = Mutex(true)
        /// What the member's data directory holds of the fleet generation; `persists` false: the disk refuses writes.
        let stored = Mutex(FleetGeneration())
        let persists = Mutex(true)
        var heldVersion: UInt64 { version.withLock { $0 } }
        var holdsLiveData: Bool { live.withLock { $0 } }
        var idMark: Int64 { 40 }
        func adopt(idMark: Int64) { adopted.withLock { $0 = max($0, idMark) } }
        var generation: FleetGeneration { stored.withLock { $0 } }
        func persist(_ generation: FleetGeneration) -> Bool {
            guard persists.withLock({ $0 }) else { return false }
            stored.withLock { $0 = generation }
            return true
        }
        func publication(after published: DatasetPointer?, token: FleetFenceToken) async -> DatasetPointer? {
            let held = heldVersion
            if let published, published.token == token, published.version >= held { return nil }
            beforePublication.withLock { $0 }?()
            return DatasetPointer(
                version: held, epoch: token.revision, generation: token.generation, url: "http://m/internal/v1/dataset", checksum: "fnv1a64:1", asOf: nil)
        }
    }

    final class Clock: Sendable {
        let now = Mutex<Double>(1000)
        func advance(_ seconds: Double) { now.withLock { $0 += seconds } }
        var read: @Sendable () -> Double { { self.now.withLock { $0 } } }
    }

    /// `emptyFleetWait` 0 unless a test is about it: most tests start from an empty fleet.
    func coordinator(_ etcd: FakeEtcd, name: String, member: Member = Member(), clock: Clock = Clock(), emptyFleetWait: Double = 0) -> FleetCoordinator {
        let settings = FleetSettings(endpoints: [etcd.url], fleet: "t", advertiseURL: URL(string: "http://\(name):8080")!, leaseSeconds: 10)
        // The fake's server reads whole bodies: keep-alives are requests (LeaseKeepAliveStreamTests has the stream).
        let client = EtcdClient(endpoints: [etcd.url], timeout: settings.requestTimeout, streamsKeepAlives: false)
        return FleetCoordinator(settings: settings, member: member, client: client, emptyFleetWait: emptyFleetWait, monotonic: clock.read)
    }

    @Test func theFirstMemberLeadsPublishesAndAnotherDoesNot() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let a = coordinator(etcd, name: "a"), b = coordinator(etcd, name: "b")
        await a.cycle()
        await b.cycle()
        #expect(a.mayAct())
        #expect(!b.mayAct())
        let epoch = try #require(etcd.entry("/t/leader")).createRevision
        #expect(a.status.epoch == epoch)
        #expect(b.status.leaderName == "a:8080")
        let pointer = try #require(etcd.value("/t/dataset"))
        #expect(pointer.contains("\"epoch\":\(epoch)") && pointer.contains("\"version\":5"))
        #expect(etcd.value("/t/ids") == "40")
        #expect(etcd.value("/t/members/b:8080")?.contains("\"role\":\"follower\"") == true)
    }

    @Test func aLeaderStepsDownAtItsDeadlineWithoutAnyEtcdAnswer() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let clock = Clock()
        let a = coordinator(etcd, name: "a", clock: clock)
        await a.cycle()
        #expect(a.mayAct())
        clock.advance(7.9)
        #expect(a.mayAct())
        clock.advance(0.1)  // 10 s lease, 20 % margin
        #expect(!a.mayAct())
        a.tick()
        #expect(a.status.role == .follower)
    }

    @Test func aKeepAliveWithoutTTLStepsTheLeaderDown() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let clock = Clock()
        let a = coordinator(etcd, name: "a", clock: clock)
        await a.cycle()
        let lease = try #require(etcd.entry("/t/leader")).lease
        etcd.expire(lease)
        clock.advance(4)  // a keep-alive is due every third of the TTL
        await a.cycle()
        #expect(!a.mayAct())
    }

    @Test func aLeaderWhoseKeyWasReplacedStepsDownAndTheNewEpochIsSeen() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let a = coordinator(etcd, name: "a")
        await a.cycle()
        etcd.delete("/t/leader")
        etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1"}"#)
        await a.cycle()
        #expect(!a.mayAct())
        #expect(a.status.epoch == etcd.entry("/t/leader")?.createRevision)
        #expect(a.status.leaderName == "z:1")
    }

    /// The fence itself: the leader read the fleet while it still held the key, then another member took the key
    /// before the leader's publication reached etcd. The publication's compare on the epoch refuses it, and the
    /// old leader steps down.
    @Test func aPublicationAfterTheLeaderKeyWasReplacedIsRefused() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let member = Member()
        let a = coordinator(etcd, name: "a", member: member)
        await a.cycle()
        #expect(a.mayAct())
        let published = try #require(etcd.value("/t/dataset"))
        member.version.withLock { $0 = 6 }
        member.beforePublication.withLock {
            $0 = {
                etcd.delete("/t/leader")
                etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1"}"#)
            }
        }
        await a.cycle()
        #expect(etcd.value("/t/dataset") == published)
        #expect(!a.mayAct())
    }

    @Test func aMemberBehindThePublishedVersionDoesNotCampaign() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        etcd.put("/t/dataset", #"{"version":9,"epoch":3,"url":"http://x/internal/v1/dataset","checksum":"fnv1a64:1"}"#)
        etcd.put("/t/members/x", #"{"url":"http://x","version":9,"epoch":3,"role":"follower"}"#)
        etcd.put("/t/ids", "77")
        let member = Member()
        let fresh = coordinator(etcd, name: "fresh", member: member)
        await fresh.cycle()
        #expect(!fresh.mayAct())
        #expect(etcd.entry("/t/leader") == nil)
        #expect(fresh.status.waiting == "not campaigning: holds v5 while v9 is published")
        #expect(member.adopted.withLock { $0 } == 77)
        member.version.withLock { $0 = 9 }
        await fresh.cycle()
        #expect(fresh.mayAct())
    }

    /// The publisher of v9 died before anyone copied it (its member record went with its lease): the member
    /// holding the highest live version leads instead of the fleet waiting for that machine.
    @Test func aVersionWhosePublisherIsGoneDoesNotKeepTheFleetLeaderless() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        etcd.put("/t/dataset", #"{"version":9,"epoch":3,"url":"http://x/internal/v1/dataset","checksum":"fnv1a64:1"}"#)
        let survivor = coordinator(etcd, name: "survivor")
        await survivor.cycle()
        #expect(survivor.mayAct())
        #expect(etcd.entry("/t/leader") != nil)
    }

    @Test func wrongCredentialsNeverLeadAndSayWhy() async throws {
        let etcd = try FakeEtcd(user: ("petty", "s3cret")).start()
        defer { etcd.stop() }
        let settings = FleetSettings(
            endpoints: [etcd.url], credentials: EtcdCredentials(username: "petty", password: "nope"), fleet: "t",
            advertiseURL: URL(string: "http://a:1")!)
        let a = FleetCoordinator(settings: settings, member: Member())
        await a.cycle()
        #expect(!a.mayAct())
        #expect(a.status.etcd.hasPrefix("etcd authentication failed"))
        #expect(etcd.entry("/t/leader") == nil)
    }
}

extension FleetCoordinatorTests {
    /// The skew is measured from a pointer that changed while watched (just published), never from one found at
    /// start, which may be hours old.
    @Test func theLeadersClockSkewIsMeasuredFromANewlyPublishedPointer() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let now = Date(timeIntervalSince1970: 1_800_000_000)
        etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1"}"#)
        func publish(version: Int, millis: Int64) {
            etcd.put("/t/dataset", #"{"version":\#(version),"epoch":2,"url":"http://z:1/internal/v1/dataset","checksum":"fnv1a64:1","published_ms":\#(millis)}"#)
        }
        publish(version: 9, millis: Int64(now.timeIntervalSince1970 * 1000) - 7_200_000)
        let settings = FleetSettings(endpoints: [etcd.url], fleet: "t", advertiseURL: URL(string: "http://b:8080")!, leaseSeconds: 10)
        let b = FleetCoordinator(settings: settings, member: Member(), monotonic: Clock().read, wall: { now })
        await b.cycle()
        #expect(b.status.clockSkew == nil)
        publish(version: 10, millis: Int64(now.timeIntervalSince1970 * 1000) + 3_600_000)
        await b.cycle()
        #expect(b.status.clockSkew == 3_600)
    }
}

extension FleetCoordinatorTests {
    /// Someone with write access to the fleet's keys writes a pointer at the leader's epoch with a higher version:
    /// the leader rewrites it with its own on its next round, and writes back only its own id mark.
    @Test func theLeaderRewritesAPointerThatIsNotItsOwn() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let a = coordinator(etcd, name: "a")
        await a.cycle()
        let own = try #require(etcd.value("/t/dataset"))
        let epoch = try #require(etcd.entry("/t/leader")).createRevision
        etcd.put("/t/dataset", #"{"version":6,"epoch":\#(epoch),"url":"http://evil/internal/v1/dataset","checksum":"fnv1a64:e"}"#)
        etcd.put("/t/ids", "50000000")
        await a.cycle()
        #expect(a.mayAct())
        #expect(etcd.value("/t/dataset")?.contains("evil") == false, "\(etcd.value("/t/dataset") ?? "")")
        #expect(etcd.value("/t/dataset")?.contains("\"version\":5") == true)
        #expect(etcd.value("/t/ids") == "40")
        await a.cycle()
        #expect(etcd.value("/t/dataset")?.contains("\"version\":5") == true && own.contains("\"version\":5"))
    }
}

extension FleetCoordinatorTests {
    /// etcd rebuilt from nothing (issue 46 item 1): nobody leads before every member had a lease to register, and
    /// then the newest live data leads, never a member holding only samples.
    @Test func anEmptyFleetWaitsALeaseAndSamplesNeverLeadBesideLiveData() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let clock = Clock()
        let stale = Member(), fresh = Member()
        stale.version.withLock { $0 = 40 }
        stale.live.withLock { $0 = false }  // a higher version, but only the bundled samples
        fresh.version.withLock { $0 = 12 }
        let s = coordinator(etcd, name: "stale", member: stale, clock: clock, emptyFleetWait: 10)
        let f = coordinator(etcd, name: "fresh", member: fresh, clock: clock, emptyFleetWait: 10)
        await s.cycle()
        await f.cycle()
        #expect(!s.mayAct() && !f.mayAct(), "nobody leads an empty fleet at once")
        #expect(s.status.waiting?.contains("empty fleet") == true)
        clock.advance(9)
        await s.cycle()
        await f.cycle()
        #expect(!s.mayAct() && !f.mayAct())
        clock.advance(1)
        await s.cycle()
        #expect(!s.mayAct(), "samples never lead beside a member holding live data")
        #expect(s.status.waiting == "not campaigning: holds only sample data while the fleet has held live data")
        await f.cycle()
        #expect(f.mayAct(), "\(f.status.waiting ?? "")")
        #expect(etcd.value("/t/members/stale:8080")?.contains("\"live\":false") == true, "members say whether they hold live data")
    }
}

extension FleetCoordinatorTests {
    /// Stepping down deletes the leader key only while it is still this member's (etcd's `Resign`).
    @Test func resignDeletesTheLeaderKeyOnlyWhileItIsOurs() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let a = coordinator(etcd, name: "a")
        await a.cycle()
        let epoch = try #require(etcd.entry("/t/leader")).createRevision
        etcd.delete("/t/leader")
        etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1"}"#)
        #expect(await a.resign(epoch: epoch) == false)
        #expect(etcd.value("/t/leader")?.contains("z:1") == true, "another member's key is left alone")
        let theirs = try #require(etcd.entry("/t/leader")).createRevision
        #expect(await a.resign(epoch: theirs))
        #expect(etcd.entry("/t/leader") == nil)
    }
}

extension FleetCoordinatorTests {
    /// etcd rebuilt from nothing (its keys gone, revisions restarted): a new generation, in which epochs start
    /// afresh; a new leader adopts the highest id mark any registered member reports, `/ids` being gone.
    @Test func aRebuiltEtcdStartsANewGenerationAndTheLeaderAdoptsTheMembersIDMarks() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1"}"#)
        etcd.put("/t/dataset", #"{"version":9,"epoch":2,"url":"http://z:1/internal/v1/dataset","checksum":"fnv1a64:1"}"#)
        let member = Member()
        member.version.withLock { $0 = 9 }
        let b = coordinator(etcd, name: "b", member: member)
        await b.cycle()
        #expect(b.status.generation == 0)
        etcd.delete("/t/leader")
        etcd.delete("/t/dataset")
        etcd.put("/t/members/y:1", #"{"url":"http://y:1","version":3,"epoch":0,"role":"follower","ids":900}"#)
        await b.cycle()
        #expect(b.status.generation == 1)
        #expect(b.mayAct())
        #expect(member.adopted.withLock { $0 } == 900, "the highest mark a registered member reports")
        #expect(etcd.value("/t/members/b:8080")?.contains("\"ids\":40") == true, "members register their own mark")
    }
}

extension FleetCoordinatorTests {
    /// The member records (which grow with the fleet) are read once a lease while a leader holds the key, not
    /// every round (issue 46 item 8).
    @Test func memberRecordsAreReadOnceALeaseWhileALeaderHoldsTheKey() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let clock = Clock()
        let a = coordinator(etcd, name: "a", clock: clock), b = coordinator(etcd, name: "b", clock: clock)
        await a.cycle()
        await b.cycle()
        let before = etcd.state.withLock { $0.calls.filter { $0 == "kv/range" }.count }
        for _ in 0..<10 {
            clock.advance(0.5)
            await b.cycle()
        }
        let ranges = etcd.state.withLock { $0.calls.filter { $0 == "kv/range" }.count } - before
        #expect(ranges == 10, "one small read a round, the members not again within the lease: \(ranges)")
        clock.advance(5)
        await b.cycle()
        let after = etcd.state.withLock { $0.calls.filter { $0 == "kv/range" }.count } - before
        #expect(after == 11, "a lease on, one read of the whole prefix, the members with it: \(after)")
        #expect(b.status.memberURLs == ["http://a:8080", "http://b:8080"])
    }
}

extension FleetCoordinatorTests {
    /// A new leader's advertised URL is where followers may copy from: a follower reads the member records again as
    /// soon as the leader key names a new epoch, not only when its safety net is due.
    @Test func aNewLeadersRecordIsReadAtOnce() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let clock = Clock()
        let a = coordinator(etcd, name: "a", clock: clock), b = coordinator(etcd, name: "b", clock: clock)
        await a.cycle()
        await b.cycle()
        #expect(b.status.memberURLs == ["http://a:8080"], "read before b registered; not again within the lease")
        let c = coordinator(etcd, name: "c", clock: clock)
        await c.cycle()
        etcd.delete("/t/leader")
        clock.advance(0.5)
        await c.cycle()
        #expect(c.mayAct())
        clock.advance(0.5)
        await b.cycle()
        #expect(b.status.leaderName == "c:8080")
        #expect(b.status.memberURLs == ["http://a:8080", "http://b:8080", "http://c:8080"])
    }
}

extension FleetCoordinatorTests {
    /// A gateway without `/v3/watch` (or an https endpoint) leaves the member polling every interval.
    @Test func withoutAWatchTheMemberPolls() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let a = coordinator(etcd, name: "a"), b = coordinator(etcd, name: "b")
        await a.cycle()
        await b.cycle()
        await b.cycle()
        #expect(await b.awaitChange() == false)
    }
}

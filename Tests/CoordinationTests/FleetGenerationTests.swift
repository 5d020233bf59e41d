import Foundation
import Synchronization
import TestSupport
import Testing
@testable import Coordination

/// The fleet generation outlives etcd (issue 46 item 1): persisted with each member's data, bumped when etcd is
/// rebuilt, adopted fleet-wide from the pointer, leader and member records, and half of the fencing token.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FleetGenerationTests {
    typealias Member = FleetCoordinatorTests.Member

    func coordinator(_ etcd: FakeEtcd, name: String, member: Member, log: @escaping @Sendable (String) -> Void = { _ in }) -> FleetCoordinator {
        let settings = FleetSettings(endpoints: [etcd.url], fleet: "t", advertiseURL: URL(string: "http://\(name):8080")!, leaseSeconds: 10)
        // A clock that stands still: the lease deadline never passes between a test's steps, however slow the machine.
        return FleetCoordinator(settings: settings, member: member, emptyFleetWait: 0, monotonic: { 1000 }, log: log)
    }

    func pointer(_ etcd: FakeEtcd) -> DatasetPointer? {
        etcd.value("/t/dataset").flatMap { try? JSONDecoder().decode(DatasetPointer.self, from: Data($0.utf8)) }
    }

    /// Raises etcd's revision, so the first cluster's epochs are large, as after months of leader changes.
    func age(_ etcd: FakeEtcd) {
        for n in 0..<60 { etcd.put("/elsewhere/\(n)", "x") }
    }

    @Test func aRebuiltEtcdContinuesTheGenerationUpwardAndTheTokenStaysAboveEveryEarlierOne() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        age(etcd)
        let a = Member(), b = Member()
        b.version.withLock { $0 = 4 }
        let aC = coordinator(etcd, name: "a", member: a)
        await aC.cycle()
        let first = try #require(pointer(etcd))
        let bOld = coordinator(etcd, name: "b", member: b)
        await bOld.cycle()
        #expect(first.generation == 0 && first.epoch > 60)
        #expect(b.generation == FleetGeneration(number: 0, clusterID: "1"), "the cluster id is persisted with the generation")

        // b stops (its data directory stays); etcd is wiped and started as a new cluster; a keeps running.
        etcd.rebuild(clusterID: "2")
        await aC.cycle()  // the keep-alive finds no lease: a new session next round
        #expect(!aC.mayAct())
        await aC.cycle()
        #expect(a.generation == FleetGeneration(number: 1, clusterID: "2"), "persisted before it led")
        let token = try #require(aC.fenceToken)
        let second = try #require(pointer(etcd))
        #expect(second.generation == 1 && second.epoch < first.epoch, "epochs restart small in the new cluster")
        #expect(token == second.token && token > first.token, "\(token) after \(first.token)")
        #expect(etcd.value("/t/leader")?.contains("\"generation\":1") == true)

        // b comes back with its data directory: the fleet already started generation 1 in this cluster, so it adopts
        // it (a second bump would split the fleet into two generations).
        let bNew = coordinator(etcd, name: "b", member: b)
        await bNew.cycle()
        #expect(b.generation == FleetGeneration(number: 1, clusterID: "2"))
        #expect(bNew.status.generation == 1 && bNew.fenceToken == nil, "a follower holds no token")
        #expect(etcd.value("/t/members/b:8080")?.contains("\"generation\":1") == true)

        // Rebuilt again: max(own, seen) + 1.
        etcd.rebuild(clusterID: "3")
        await bNew.cycle()
        await bNew.cycle()
        #expect(b.generation.number == 2)
    }

    @Test func aMemberRestartedAfterTheRebuildWithNobodyElseBumpsFromItsPersistedGeneration() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let member = Member()
        member.stored.withLock { $0 = FleetGeneration(number: 7, clusterID: "old-cluster") }
        let c = coordinator(etcd, name: "c", member: member)
        #expect(c.status.generation == 7, "loaded from the data directory at start")
        await c.cycle()
        #expect(member.generation == FleetGeneration(number: 8, clusterID: "1"))
        #expect(pointer(etcd)?.generation == 8)
    }

    @Test func aHigherGenerationInTheFleetsRecordsIsAdoptedAndPersisted() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1","generation":5}"#)
        let member = Member()
        member.stored.withLock { $0 = FleetGeneration(number: 2, clusterID: "1") }
        let m = coordinator(etcd, name: "m", member: member)
        await m.cycle()
        #expect(member.generation == FleetGeneration(number: 5, clusterID: "1"))
        #expect(!m.mayAct())
    }

    /// Whoever can write the fleet's keys could otherwise pin every member above any genuine token for good.
    @Test func anImplausiblyHighGenerationInTheRecordsIsIgnoredAndWarned() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        etcd.put("/t/dataset", #"{"version":9,"epoch":2,"generation":9000000000,"url":"http://z:1/internal/v1/dataset","checksum":"fnv1a64:1"}"#)
        let member = Member()
        let lines = Mutex<[String]>([])
        let m = coordinator(etcd, name: "m", member: member) { line in lines.withLock { $0.append(line) } }
        await m.cycle()
        await m.cycle()
        #expect(member.generation.number == 0)
        #expect(lines.withLock { $0.filter { $0.contains("generation 9000000000") }.count } == 1, "\(lines.withLock { $0 })")
    }

    @Test func aGenerationThatCannotBePersistedIsNotActedOn() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let member = Member()
        member.stored.withLock { $0 = FleetGeneration(number: 3, clusterID: "old-cluster") }
        member.persists.withLock { $0 = false }
        let m = coordinator(etcd, name: "m", member: member)
        await m.cycle()
        #expect(!m.mayAct() && etcd.value("/t/leader") == nil, "no campaign under an unrecorded generation")
        #expect(m.status.generation == 3)
        member.persists.withLock { $0 = true }
        await m.cycle()
        #expect(m.mayAct() && m.fenceToken?.generation == 4)
    }
}

import Coordination
import Foundation
import Fuel
import HTTP
import TestSupport
import Testing
@testable import API
@testable import App

/// The fleet generation and id mark live as long as a member's data (issue 46 item 1): `fleet.json` in its data
/// directory, loaded at start, so a member restarted after etcd was rebuilt from nothing carries on upward, never
/// issues an id the fleet issued before, and its followers take the new cluster's datasets at small epochs.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct FleetGenerationPersistenceTests {
    typealias Harness = FollowerHarness

    func directory() -> String {
        let path = TestScratch.root + "/fleet-gen-" + UUID().uuidString
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    func coordinator(_ etcd: FakeEtcd, _ member: StoreFleetMember, name: String) -> FleetCoordinator {
        let settings = FleetSettings(endpoints: [etcd.url], fleet: "t", advertiseURL: URL(string: "http://\(name):8080")!, leaseSeconds: 10)
        // A clock that stands still: the lease deadline never passes between a test's steps, however slow the machine.
        return FleetCoordinator(settings: settings, member: member, emptyFleetWait: 0, monotonic: { 1000 })
    }

    // MARK: The file

    @Test func theMarksSurviveARestartOfTheMember() {
        let path = directory()
        let file = FleetMarksFile(directory: path)
        #expect(file.persist(FleetGeneration(number: 4, clusterID: "c1")))
        #expect(file.raise(ids: 7_000))
        file.raise(ids: 6_000)
        let again = FleetMarksFile(directory: path)
        #expect(again.generation == FleetGeneration(number: 4, clusterID: "c1"))
        #expect(again.current.ids == 7_000, "a mark never goes down")
    }

    @Test func aMissingOrDamagedFileStartsAtZeroAndSaysSo() throws {
        let path = directory()
        let sink = LogSink.inMemory()
        let logger = Logger(label: "t", level: .info, sink: sink)
        #expect(FleetMarksFile(directory: path, logger: logger).current == .init())
        #expect(sink.lines.contains { $0.contains("no fleet.json") && $0.contains("generation 0") }, "\(sink.lines)")
        #expect(FleetMarksFile(directory: path).persist(FleetGeneration(number: 9, clusterID: "c")))
        let file = path + "/fleet.json"
        var bytes = try #require(FileManager.default.contents(atPath: file))
        bytes[bytes.startIndex + 15] ^= 0x01
        try bytes.write(to: URL(fileURLWithPath: file))
        #expect(FleetMarksFile(directory: path, logger: logger).current == .init())
        #expect(sink.lines.contains { $0.contains("unreadable (checksum mismatch)") && $0.contains("starts at 0") }, "\(sink.lines)")
    }

    // MARK: A member restarted with its data directory after etcd was rebuilt

    @Test func aMemberRestartedAfterARebuiltEtcdContinuesUpwardAndNeverReusesAnID() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let path = directory()
        // Before: another member leads generation 3 at a large epoch, having issued ids up to 9,000.
        for n in 0..<60 { etcd.put("/elsewhere/\(n)", "x") }
        etcd.put("/t/leader", #"{"name":"z:1","url":"http://z:1","generation":3}"#)
        etcd.put("/t/ids", "9000")
        let before = StoreFleetMember(store: makePettyStore(Harness.good), advertiseURL: URL(string: "http://m:8080")!, marks: FleetMarksFile(directory: path))
        await coordinator(etcd, before, name: "m").cycle()
        #expect(before.store.idMark == 9_000)
        let oldEpoch = try #require(etcd.entry("/t/leader")).createRevision

        // The member stops; etcd is wiped and started as a new cluster; the member starts with the same data directory
        // (its store from disk knows only its own ids, well below the fleet's mark, as a member that never led).
        etcd.rebuild(clusterID: "rebuilt")
        let store = makePettyStore(Harness.good)
        #expect(store.idMark < 9_000)
        let member = StoreFleetMember(store: store, advertiseURL: URL(string: "http://m:8080")!, marks: FleetMarksFile(directory: path))
        #expect(store.idMark == 9_000, "the fleet's mark is back from fleet.json before etcd is even read")
        let m = coordinator(etcd, member, name: "m")
        #expect(m.status.generation == 3)
        await m.cycle()
        let token = try #require(m.fenceToken, "alone in the new cluster, it leads")
        #expect(token.generation == 4 && token.revision < oldEpoch, "\(token)")
        #expect(token > FleetFenceToken(generation: 3, revision: oldEpoch))
        #expect(FleetMarksFile(directory: path).generation == FleetGeneration(number: 4, clusterID: "rebuilt"), "persisted")
        #expect(etcd.value("/t/ids") == "9000", "the mark is written back to the new cluster")
        let pointer = try #require(etcd.value("/t/dataset").flatMap { try? JSONDecoder().decode(DatasetPointer.self, from: Data($0.utf8)) })
        #expect(pointer.token == token)

        // The next id it issues is above every id the fleet issued before.
        var registry = store.dataset.registry
        let next = registry.assign(StationKey(provider: .wa, sourceID: "a station new to the fleet"))
        #expect(next.rawValue == 9_001, "next id \(next)")
    }

    /// A follower holding generation 3's v100 at epoch 62 takes generation 4's v5 at epoch 2: epochs restarted, the
    /// generation orders them (it refused every new dataset as "older than the 62 held" before).
    @Test func aFollowerTakesTheNewClustersDatasetAtTheNextGenerationAndASmallEpoch() async throws {
        let store = makePettyStore(Harness.good)
        let copier = FleetCopier(store: store, limits: FollowLimits())
        let held = try FakeLeader(serving: Harness.good).start()
        defer { held.stop() }
        func pointer(_ leader: FakeLeader, _ dataset: Dataset, generation: Int64, epoch: Int64) throws -> DatasetPointer {
            let checksum = StoreFleetMember.checksum(try ReplicationPayload.encode(dataset))
            return DatasetPointer(
                version: dataset.snapshot.version, epoch: epoch, generation: generation,
                url: leader.url.appendingPathComponent("internal/v1/dataset").absoluteString, checksum: checksum, asOf: nil)
        }
        #expect(await copier.copy(try pointer(held, Harness.good, generation: 3, epoch: 62)) == .applied(version: 100))
        let newer = Harness.liveDataset(version: 5)
        let rebuilt = try FakeLeader(serving: newer).start()
        defer { rebuilt.stop() }
        #expect(await copier.copy(try pointer(rebuilt, newer, generation: 4, epoch: 2)) == .applied(version: 5))
        #expect(copier.status.token == FleetFenceToken(generation: 4, revision: 2))
        let stale = Harness.liveDataset(version: 500)
        let deposed = try FakeLeader(serving: stale).start()
        defer { deposed.stop() }
        #expect(await copier.copy(try pointer(deposed, stale, generation: 3, epoch: 80)) == .refused("the token 3.80 (generation.epoch) is older than the 4.2 held"),
                "the old generation's leader, however high its epoch and version")
        #expect(store.current.version == 5)
    }

    /// Whoever can write the fleet's keys cannot raise a signed pointer's generation (and so pin the followers).
    @Test func theSignatureCoversTheGeneration() async throws {
        let store = makePettyStore(Harness.good)
        let signer = try #require(DatasetSignature(secret: "a fleet secret, long enough", fleet: "f"))
        let member = StoreFleetMember(store: store, advertiseURL: URL(string: "http://10.0.0.11:8080")!, signer: signer)
        var pointer = try #require(await member.publication(after: nil, token: FleetFenceToken(generation: 2, revision: 9)))
        #expect(pointer.generation == 2 && pointer.epoch == 9)
        let body = try ReplicationPayload.encode(store.dataset)
        #expect(signer.refusal(of: pointer, body: body) == nil)
        pointer.generation = 3
        #expect(signer.refusal(of: pointer, body: body)?.contains("wrong signature") == true)
    }
}

import Coordination
import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Whoever can write the fleet's keys does not control the followers (issue 46 item 5): where a follower downloads
/// from, the signature under `PETTY_FLEET_SECRET`, the growth rule and one limit on station ids.
@Suite(.serialized) struct FleetTrustTests {
    typealias Harness = FollowerHarness

    static let leaderURL = "http://10.0.0.11:8080"
    static let source = CopySource(
        leaderEpoch: 7, leaderURL: leaderURL, allowed: [IPAddressRange("10.0.0.0/24")!],
        memberURLs: [leaderURL, "http://10.0.0.12:8080", "http://petty-3:8080"])

    func pointer(_ url: String, epoch: Int64 = 7) -> DatasetPointer {
        DatasetPointer(version: 101, epoch: epoch, url: url, checksum: "fnv1a64:1", asOf: nil)
    }

    // MARK: Where a follower downloads from

    @Test func onlyTheCurrentLeadersURLOnAnAllowedHostIsContacted() {
        #expect(Self.source.refusal(of: pointer(Self.leaderURL + "/internal/v1/dataset")) == nil)
        #expect(Self.source.refusal(of: pointer(Self.leaderURL + "/internal/v1/dataset", epoch: 6))?.contains("not the current leader's") == true)
        #expect(Self.source.refusal(of: pointer("http://10.0.0.12:8080/internal/v1/dataset"))?.contains("not under the leader's") == true,
                "another member's URL at the leader's epoch")
        #expect(Self.source.refusal(of: pointer("http://evil.example/internal/v1/dataset")) != nil)
        #expect(Self.source.refusal(of: pointer("file:///etc/passwd")) != nil)
    }

    /// A leader key rewritten to a host of the writer's choosing (a put keeps its epoch) is still not contacted.
    @Test func aLeaderURLOutsideTheMembersHostsIsNotContacted() {
        var source = Self.source
        source.leaderURL = "http://203.0.113.9:80"
        #expect(source.refusal(of: pointer("http://203.0.113.9:80/internal/v1/dataset"))?.contains("neither in PETTY_FOLLOWERS") == true)
        source.leaderURL = "http://petty-3:8080"
        #expect(source.refusal(of: pointer("http://petty-3:8080/internal/v1/dataset")) == nil, "a registered member's host name")
    }

    @Test func aURLWithCredentialsIsNeverContactedNorLogged() {
        var source = Self.source
        source.leaderURL = "http://user:hunter2@10.0.0.11:8080"
        let why = source.refusal(of: pointer("http://user:hunter2@10.0.0.11:8080/internal/v1/dataset"))
        #expect(why?.contains("credentials") == true && why?.contains("hunter2") == false)
        #expect(CopySource.redacted("http://user:hunter2@10.0.0.11:8080/x") == "http://10.0.0.11:8080/x")
    }

    /// Whoever wrote the pointer cannot send a follower on to another host through a redirect.
    @Test func aRedirectIsNeverFollowed() async throws {
        let (store, copier) = follower(verifying: nil)
        let (target, genuine) = try leader(serving: Harness.liveDataset(version: 101), signedWith: nil)
        defer { target.stop() }
        let redirector = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        redirector.server.threads = 1
        redirector.on(.GET, "internal", "v1", "dataset") { _ in Response(status: .found, headers: ["Location": genuine.url]) }
        let port = try redirector.startLive()
        defer { redirector.shutdown() }
        var pointer = genuine
        pointer.url = "http://127.0.0.1:\(port)/internal/v1/dataset"
        #expect(await copier.copy(pointer) == .failed("leader answered HTTP 302"))
        #expect(store.current.version == 100)
    }

    // MARK: The signature

    static let secret = "a fleet secret of some length"

    func follower(verifying secret: String?) -> (PettyStore, FleetCopier) {
        let store = makePettyStore(Harness.good)
        return (store, FleetCopier(store: store, limits: FollowLimits(), verifier: DatasetSignature(secret: secret, fleet: "f")))
    }

    /// A leader serving `dataset` and its pointer at epoch 7, signed under `secret` (nil: unsigned).
    func leader(serving dataset: Dataset, signedWith secret: String?, fleet: String = "f") throws -> (FakeLeader, DatasetPointer) {
        let leader = try FakeLeader(serving: dataset).start()
        let body = try ReplicationPayload.encode(dataset)
        let url = leader.url.appendingPathComponent("internal/v1/dataset").absoluteString
        let pointer = DatasetPointer(version: dataset.snapshot.version, epoch: 7, url: url, checksum: StoreFleetMember.checksum(body), asOf: nil)
        guard let signer = DatasetSignature(secret: secret, fleet: fleet) else { return (leader, pointer) }
        return (leader, signer.signed(pointer, sha256: DatasetSignature.digest(body)))
    }

    @Test func unsignedAndWronglySignedDatasetsAreRefusedAndTheSignedOneApplied() async throws {
        let (store, copier) = follower(verifying: Self.secret)
        let dataset = Harness.liveDataset(version: 101)
        for (secret, fleet, words) in [(nil, "f", "unsigned"), ("another secret, long enough", "f", "wrong signature"), (Self.secret, "g", "wrong signature")] {
            let (leader, pointer) = try leader(serving: dataset, signedWith: secret, fleet: fleet)
            defer { leader.stop() }
            guard case .refused(let why) = await copier.copy(pointer) else {
                Issue.record("applied a dataset signed with \(secret ?? "nothing") for fleet \(fleet)")
                continue
            }
            #expect(why.contains(words), "\(why)")
            #expect(store.current.version == 100)
        }
        let (leader, signed) = try leader(serving: dataset, signedWith: Self.secret)
        defer { leader.stop() }
        var forged = signed
        forged.version = 102  // the token is signed too
        #expect(await copier.copy(forged) != .applied(version: 102))
        #expect(await copier.copy(signed) == .applied(version: 101))
    }

    /// Another body under the genuine digest and signature: the SHA-256 of what arrived decides.
    @Test func aSignedPointerOverAnotherBodyIsRefused() async throws {
        let (store, copier) = follower(verifying: Self.secret)
        let (genuine, signed) = try leader(serving: Harness.liveDataset(version: 101), signedWith: Self.secret)
        genuine.stop()
        let evil = Harness.liveDataset(version: 101) { entries, _ in entries.removeLast() }
        let (other, unsigned) = try leader(serving: evil, signedWith: nil)
        defer { other.stop() }
        var pointer = signed
        pointer.url = unsigned.url
        pointer.checksum = unsigned.checksum
        guard case .refused(let why) = await copier.copy(pointer) else {
            Issue.record("applied")
            return
        }
        #expect(why.contains("SHA-256"), "\(why)")
        #expect(store.current.version == 100)
    }

    @Test func theSecretComesFromTheEnvironmentOnly() throws {
        let env = ["PETTY_ETCD_ENDPOINTS": "http://a:2379", "PETTY_FLEET_SECRET": Self.secret]
        #expect(try CommandLineParser.parse([], environment: env).1.fleet.secret == Self.secret)
        #expect(throws: (any Error).self) { try CommandLineParser.parse([], environment: ["PETTY_FLEET_SECRET": "short"]) }
        #expect(throws: (any Error).self) { try CommandLineParser.parse(["serve", "--fleet-secret", "x"], environment: [:]) }
    }

    @Test func theLeaderSignsWhatItPublishes() async throws {
        let store = makePettyStore(Harness.good)
        let signer = DatasetSignature(secret: Self.secret, fleet: "f")
        let member = StoreFleetMember(store: store, advertiseURL: URL(string: "http://10.0.0.11:8080")!, signer: signer)
        let pointer = try #require(await member.publication(after: nil, token: FleetFenceToken(generation: 0, revision: 9)))
        let body = try ReplicationPayload.encode(store.dataset)
        #expect(signer?.refusal(of: pointer, body: body) == nil)
        #expect(pointer.live == true, "the pointer says the fleet has held live data")
        #expect(DatasetSignature(secret: nil, fleet: "f") == nil, "no secret: nothing signed, nothing checked")
    }

    // MARK: Growth and ids

    /// The whole sample at once beside 50 stations a provider: refused twice, taken the third time in a row.
    @Test func theGrowthRuleAppliesInFleetModeAsInFollowMode() async throws {
        let (store, copier) = follower(verifying: nil)
        let sample = AppTestSupport.sampleDataset
        for version in UInt64(101)...103 {
            let statuses = sample.snapshot.statuses.map { status in
                var status = status
                status.source = .live
                return status
            }
            let grown = Dataset(
                snapshot: Snapshot(version: version, changedAt: sample.snapshot.changedAt, entries: sample.snapshot.entries, statuses: statuses),
                registry: sample.registry, history: sample.history)
            let (leader, pointer) = try leader(serving: grown, signedWith: nil)
            defer { leader.stop() }
            let outcome = await copier.copy(pointer)
            if version < 103 {
                guard case .refused(let why) = outcome else {
            Issue.record("v\(version) applied at once: \(outcome)")
            return
        }
                #expect(why.contains("implausible growth"), "\(why)")
                #expect(store.current.version == 100)
            } else {
                #expect(outcome == .applied(version: 103), "the third dataset in a row showing it")
            }
        }
    }

    @Test func oneLimitOnStationIDs() {
        #expect(LoadLimits.maxStationID == DatasetValidation.maxStationID)
        let store = makePettyStore(Harness.good)
        let before = store.idMark
        FleetIDHighWaterMark.raise(store, to: 50_000_000)
        #expect(store.idMark == before, "a mark replication would refuse is not adopted")
    }
}

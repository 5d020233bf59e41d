import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// One leader accident must not take the fleet down: whatever a follower refuses, it keeps serving its previous
/// data, keeps its persisted copy byte for byte, and `/health` names the leader as failing and why.
@Suite(.serialized, .longScenario) struct FollowerTrustTests {
    typealias Harness = FollowerHarness

    /// A follower holding `Harness.good` from a fake leader that then serves `bad`.
    func expectRefused(_ bad: Dataset, because reason: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let leader = try FakeLeader(serving: Harness.good).start()
        defer { leader.stop() }
        try await expectRefusal(from: leader.url, because: reason, sourceLocation: sourceLocation) { try leader.serve(bad) }
    }

    /// Starts a healthy follower, lets the leader `misbehave`, and checks what a user sees: the leader failing in
    /// `/health` with `reason`, the same station bytes and snapshot version, the same files on disk.
    func expectRefusal(
        from leader: URL, limits: FollowLimits = FollowLimits(), within seconds: Double = 30, because reason: String,
        sourceLocation: SourceLocation = #_sourceLocation, misbehave: () throws -> Void
    ) async throws {
        let follower = try await Harness.start(following: leader, limits: limits)
        defer { follower.stop() }
        let healthy = await eventually(seconds: 30) { try await follower.follow().status == "ok" }
        #expect(healthy, "the follower never synced with the well-behaved leader", sourceLocation: sourceLocation)
        let station = try await follower.get("/v1/stations/1")
        let files = follower.persistedFiles()

        try misbehave()
        let failing = await eventually(seconds: seconds) { try await follower.follow().status == "failing" }
        #expect(failing, "the follower never reported the leader as failing", sourceLocation: sourceLocation)
        // Long enough for a wrongly applied dataset to reach the disk (the persister looks every second).
        try await Task.sleep(nanoseconds: 1_300_000_000)

        let follow = try await follower.follow()
        #expect(follow.status == "failing", sourceLocation: sourceLocation)
        #expect(follow.lastError?.contains(reason) == true, "last_error: \(follow.lastError ?? "nil")", sourceLocation: sourceLocation)
        let health = try await follower.health()
        #expect(health["status"] as? String == "degraded", sourceLocation: sourceLocation)
        #expect((health["snapshot"] as? [String: Any])?["version"] as? Int == 100, sourceLocation: sourceLocation)
        let now = try await follower.get("/v1/stations/1")
        #expect(now.status == 200 && now.body == station.body, "still serves its previous data", sourceLocation: sourceLocation)
        #expect(follower.persistedFiles() == files, "the persisted copy is unchanged", sourceLocation: sourceLocation)
    }

    @Test func aNewerCompleteDatasetIsAppliedAndPersisted() async throws {
        let newer = Harness.liveDataset(version: 101) { entries, _ in entries[0].station.name = "Renamed by the leader" }
        let leader = try FakeLeader(serving: newer).start()
        defer { leader.stop() }
        let follower = try await Harness.start(following: leader.url)
        defer { follower.stop() }
        let applied = await eventually(seconds: 30) { try await follower.follow().status == "ok" }
        #expect(applied)
        #expect(String(decoding: try await follower.get("/v1/stations/1").body, as: UTF8.self).contains("Renamed by the leader"))
        #expect(leader.lastAcceptEncoding == "identity", "so the bytes counted against the cap are the bytes on the wire")
        #expect(await eventually(seconds: 30) {
            guard case .verified(let payload) = FileSeal.open(Array(follower.persistedFiles()["snapshot.bin"] ?? Data())) else { return false }
            return try SnapshotCodec.decode(payload).version == 101
        })
    }

    @Test func anEmptyDatasetIsRefused() async throws {
        let empty = Harness.liveDataset(version: 200) { entries, _ in entries = [] }
        try await expectRefused(empty, because: "empty dataset")
    }

    @Test func anOlderVersionIsRefused() async throws {
        try await expectRefused(Harness.liveDataset(version: 99), because: "older dataset: v99 is behind the v100 held")
    }

    @Test func sampleDataNeverReplacesLiveData() async throws {
        let sample = Harness.liveDataset(version: 200) { _, statuses in
            for index in statuses.indices where statuses[index].provider == .nsw {
                statuses[index].source = .sample
            }
        }
        try await expectRefused(sample, because: "nsw: sample data offered in place of live data")
    }

    @Test func aProvidersOlderDataIsRefused() async throws {
        let older = Harness.liveDataset(version: 200) { _, statuses in
            for index in statuses.indices where statuses[index].provider == .vic {
                statuses[index].asOf = statuses[index].asOf?.addingTimeInterval(-86_400)
            }
        }
        try await expectRefused(older, because: "vic: data as of")
    }

    @Test func aProviderLosingMoreThanHalfItsStationsIsRefused() async throws {
        let halved = Harness.liveDataset(version: 200) { entries, _ in
            let nsw = entries.filter { $0.station.provider == .nsw }
            let dropped = Set(nsw.prefix(nsw.count / 2 + 1).map(\.id))
            entries.removeAll { dropped.contains($0.id) }
        }
        try await expectRefused(halved, because: "fewer than half of the")
    }

    @Test func aProviderWithoutPricesIsRefused() async throws {
        let priceless = Harness.liveDataset(version: 200) { entries, _ in
            for index in entries.indices where entries[index].station.provider == .wa { entries[index].prices = [] }
        }
        try await expectRefused(priceless, because: "wa: no plausible prices")
    }

    @Test func anImplausiblePriceIsRefused() async throws {
        let implausible = Harness.liveDataset(version: 200) { entries, _ in
            entries[0].prices[0].price = PriceTenths(tenths: 99_999)
        }
        try await expectRefused(implausible, because: "implausible")
    }

    @Test(arguments: [
        Coordinate(latitude: .nan, longitude: 151.2),
        Coordinate(latitude: -33.8, longitude: .infinity),  // how 1e400 arrives
        Coordinate(latitude: 91, longitude: 151.2),
        Coordinate(latitude: -33.8, longitude: 1e300),
    ])
    func aStationOutOfRangeIsRefused(_ location: Coordinate) async throws {
        let bad = Harness.liveDataset(version: 200) { entries, _ in entries[0].station.location = location }
        // Refused at decode, by the snapshot codec's load checks or the dataset validation, whichever sees it first.
        try await expectRefused(bad, because: "coordinate")
    }

    @Test func aHugeStationIDIsRefused() async throws {
        let huge = Harness.liveDataset(version: 200) { entries, _ in
            var extra = entries[0]
            extra.station.id = StationID(1 << 33)
            extra.station.key = StationKey(provider: extra.station.provider, sourceID: "from-a-broken-leader")
            entries.append(extra)
        }
        try await expectRefused(huge, because: "8589934592")
    }

    @Test func anEndlessBodyIsCutAtTheCapWithBoundedMemory() async throws {
        let leader = try StreamingLeader(.endless(bytesPerSecond: 200 << 20))
        defer { leader.stop() }
        var watch: ResidentMemory.Watch?
        try await expectRefusal(from: leader.url, limits: FollowLimits(maxBytes: 16 << 20), because: "exceeds the 16777216-byte cap") {
            watch = ResidentMemory.Watch()
            leader.misbehave()
        }
        let (baseline, peak) = try #require(watch).stop()
        print("endless body: resident \(baseline >> 20) MB before, peak \(peak >> 20) MB, growth \((peak - baseline) >> 20) MB")
        #expect(peak - baseline < 200 << 20)
    }

    @Test func aTricklingBodyFailsAtTheDeadline() async throws {
        let leader = try StreamingLeader(.trickle(every: 0.1))
        defer { leader.stop() }
        try await expectRefusal(
            from: leader.url, limits: FollowLimits(deadline: 2), within: 30, because: "did not finish within the 2 s deadline"
        ) { leader.misbehave() }
    }
}

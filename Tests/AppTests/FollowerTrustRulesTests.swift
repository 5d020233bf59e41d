import Foundation
import Fuel
import HTTP
import Providers
import Testing
@testable import API
@testable import App

/// The trust rules a follower applies to every dataset, driven step by step: a follower service over its own store,
/// with an injected clock, offered decoded datasets (`offer`, what a sync does after the checksum) or synced on
/// demand (`syncOnce`) from a fake leader on loopback for what travels on the wire. Nothing a leader sends can pin
/// a follower: after each refusal the healthy leader's next dataset is applied, without a restart.
/// Serialized: loopback transfers of parallel tests starve each other on a loaded machine.
@Suite(.serialized) struct FollowerTrustRulesTests {
    typealias Harness = FollowerHarness
    static let held = Harness.good

    /// The follower's clock: a day after the newest instant of the data.
    static let now: Date = {
        let snapshot = held.snapshot
        let instants = snapshot.statuses.compactMap(\.asOf) + [snapshot.changedAt ?? .distantPast]
            + snapshot.entries.flatMap { $0.prices.flatMap { [$0.updatedAt, $0.seenAt ?? .distantPast] } }
        return instants.max()!.addingTimeInterval(86_400)
    }()

    struct Follower {
        let store: PettyStore
        let service: FollowerService

        init(following leader: URL, holding dataset: Dataset = FollowerTrustRulesTests.held) {
            store = makePettyStore(dataset)
            service = FollowerService(
                leader: leader, store: store, interval: 1, logger: AppTestSupport.quietLogger(), clock: { FollowerTrustRulesTests.now })
        }

        var version: UInt64 { store.current.version }
        var lastError: String { service.status.lastError ?? "" }
        func refusals(_ reason: DatasetRefusal.Reason) -> Int { service.status.refusals[reason] ?? 0 }
    }

    /// A leader serving `dataset`, and a follower holding `held`.
    func setUp(serving dataset: Dataset) throws -> (FakeLeader, Follower) {
        let leader = try FakeLeader(serving: dataset).start()
        return (leader, Follower(following: leader.url))
    }

    func healthy(_ version: UInt64) -> Dataset { Harness.liveDataset(version: version) }

    static let nowhere = URL(string: "http://127.0.0.1:9")!

    /// `bad` is refused for `reason` (the store untouched), then the leader's next healthy dataset is applied.
    func expectRefusedThenRecovered(
        _ bad: Dataset, _ reason: DatasetRefusal.Reason, saying words: String, sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let follower = Follower(following: Self.nowhere)
        #expect(follower.service.offer(bad, etag: "\"bad\"", bytes: 0) == false, sourceLocation: sourceLocation)
        #expect(follower.store.current.dataset == Self.held, "the store is untouched", sourceLocation: sourceLocation)
        #expect(follower.refusals(reason) == 1, "\(follower.service.status.refusals)", sourceLocation: sourceLocation)
        #expect(follower.lastError.contains(words), "\(follower.lastError)", sourceLocation: sourceLocation)
        #expect(follower.service.status.failing, sourceLocation: sourceLocation)
        #expect(follower.service.offer(healthy(300), etag: "\"next\"", bytes: 0), "the healthy leader's next dataset is followed", sourceLocation: sourceLocation)
        #expect(follower.version == 300 && !follower.service.status.failing, sourceLocation: sourceLocation)
    }

    /// Whether a follower holding `held` (or `holding`) applies `dataset`.
    func offered(_ dataset: Dataset, holding: Dataset = FollowerTrustRulesTests.held) -> (applied: Bool, follower: Follower) {
        let follower = Follower(following: Self.nowhere, holding: holding)
        return (follower.service.offer(dataset, etag: "\"offered\"", bytes: 0), follower)
    }

    // MARK: The checksum

    // Thirty single-bit flips over the wire: FollowerChecksumOnTheWireTests (a long scenario).

    @Test func aPayloadWithoutAChecksumIsRefused() async throws {
        let (leader, follower) = try setUp(serving: Self.held)
        defer { leader.stop() }
        leader.serve(raw: try ReplicationPayload.encode(healthy(101)), etag: "\"unsealed\"")
        #expect(await follower.service.syncOnce() == false)
        #expect(follower.lastError.contains("no checksum"), "\(follower.lastError)")
    }

    // MARK: Nothing can pin a follower

    /// Over the wire, as a leader would send it: refused, an unchanged leader costs a 304 and stays refused, and the
    /// leader's next healthy dataset is followed.
    @Test func versionTwoToThe63MinusOneIsRefusedAndTheNextHealthyDatasetFollowed() async throws {
        let (leader, follower) = try setUp(serving: healthy(UInt64(Int64.max)))
        defer { leader.stop() }
        #expect(await follower.service.syncOnce() == false)
        #expect(follower.store.current.dataset == Self.held)
        #expect(follower.refusals(.versionJump) == 1)
        #expect(follower.lastError.contains("version jump"), "\(follower.lastError)")
        #expect(await follower.service.syncOnce() == false)
        #expect(follower.refusals(.versionJump) == 1, "a 304: not downloaded again")
        try leader.serve(healthy(300))
        #expect(await follower.service.syncOnce(), "the healthy leader's next dataset is followed")
        #expect(follower.version == 300 && !follower.service.status.failing)
    }

    /// The bound grows with the held data's age (a second per version): the follower's clock is a day past it.
    @Test func aVersionJumpIsJudgedOnBothSidesOfTheBoundForTheHeldDataAge() {
        let bound = DatasetBounds.maxVersionJump(holding: Self.held.snapshot, now: Self.now)
        let age = UInt64(Self.now.timeIntervalSince(Self.held.snapshot.changedAt!))
        #expect(bound == DatasetBounds.baseVersionJump + age && bound < 200_000, "\(bound)")
        let (refused, follower) = offered(healthy(100 + bound + 1))
        #expect(!refused && follower.refusals(.versionJump) == 1)
        #expect(offered(healthy(100 + bound)).applied)
        #expect(!offered(healthy(100 + 1_000_000)).applied, "the issue's pin: a million over day-old data")
    }

    /// A pin that got in before the bound (v1000012 on disk, every genuine dataset "behind" it) is cleared by
    /// `Run data unpin DIR`: the data kept, version 0, and the leader's next dataset taken.
    @Test func dataUnpinClearsAPersistedPin() throws {
        let pinned = Harness.liveDataset(version: 1_000_012)
        #expect(!offered(healthy(13), holding: pinned).applied, "pinned: v13 is behind v1000012")
        let path = AppTestSupport.temporaryDirectory()
        try DataDirectory(path: path, logger: AppTestSupport.quietLogger()).save(pinned)
        #expect(Entrypoint.main(arguments: ["data", "unpin", path], environment: [:]) == 0)
        let loaded = DataDirectory(path: path, logger: AppTestSupport.quietLogger()).load()
        #expect(loaded.problems.isEmpty, "\(loaded.problems)")
        #expect(loaded.dataset.snapshot.version == 0 && loaded.dataset.snapshot.entries == pinned.snapshot.entries)
        let (applied, follower) = offered(healthy(13), holding: loaded.dataset)
        #expect(applied && follower.version == 13)
        #expect(try CommandLineParser.parse(["data", "unpin", "/a"], environment: [:]).0 == .dataUnpin(directory: "/a"))
    }

    @Test func aFreshFollowerTakesALongLivedLeadersVersion() {
        let (applied, follower) = offered(healthy(5_000_000), holding: Dataset())
        #expect(applied && follower.version == 5_000_000)
        #expect(!offered(healthy(UInt64(Int64.max)), holding: Dataset()).applied, "but nothing near overflow")
    }

    static func with(asOf: Date, version: UInt64) -> Dataset {
        Harness.liveDataset(version: version) { _, statuses in
            for index in statuses.indices where statuses[index].provider == .wa { statuses[index].asOf = asOf }
        }
    }

    @Test func anAsOfIn2198IsRefusedAndTheNextHealthyDatasetFollowed() {
        let in2198 = Date(timeIntervalSince1970: 7_195_046_400)  // 2198-01-01
        expectRefusedThenRecovered(Self.with(asOf: in2198, version: 200), .future, saying: "ahead of this server's clock")
    }

    @Test func anAsOfIsJudgedOnBothSidesOfTenMinutesAhead() {
        let (refused, follower) = offered(Self.with(asOf: Self.now.addingTimeInterval(601), version: 101))
        #expect(!refused && follower.refusals(.future) == 1)
        #expect(offered(Self.with(asOf: Self.now.addingTimeInterval(600), version: 101)).applied)
    }

    // MARK: Growth and text, by the feeds' own rules

    /// `held` with `count` more NSW stations.
    static func grown(by count: Int, version: UInt64) -> Dataset {
        Harness.liveDataset(version: version) { entries, _ in
            let template = entries.first { $0.station.provider == .nsw }!
            for index in 0..<count {
                var entry = template
                entry.station.id = StationID(1_000_000 + index)
                entry.station.key = StationKey(provider: .nsw, sourceID: "ghost-\(index)")
                entry.station.location = Coordinate(latitude: -33 - Double(index % 1_000) / 1_000, longitude: 150 + Double(index / 1_000) / 100)
                entries.append(entry)
            }
        }
    }

    /// Far past the feed rule in one dataset. The same at the 100,000-station limit: FollowerLargestDatasetTests.
    @Test func aDatasetFarPastTheFeedRuleIsRefused() {
        let grown = Self.grown(by: 2_000, version: 150)
        expectRefusedThenRecovered(grown, .growth, saying: "implausible growth: nsw: ")
        #expect(offered(grown).follower.lastError.contains("nsw: 2050 stations, 50 held (at most 25 new at once)"))
    }

    @Test func growthBeyondTheFeedRuleIsAcceptedOnlyWhenThreeDatasetsInARowShowIt() {
        // 50 NSW stations held: one feed may add max(25, 50 / 4) = 25.
        let follower = Follower(following: Self.nowhere)
        #expect(follower.service.offer(Self.grown(by: 25, version: 101), etag: nil, bytes: 0), "growth within the rule")
        for version in UInt64(102)...103 {
            // 105 > 75 + max(25, 75 / 4)
            #expect(follower.service.offer(Self.grown(by: 25 + 30, version: version), etag: nil, bytes: 0) == false, "v\(version)")
        }
        #expect(follower.refusals(.growth) == 2)
        #expect(follower.service.offer(Self.grown(by: 25 + 30, version: 104), etag: nil, bytes: 0), "the third dataset in a row confirms it")
        #expect(follower.version == 104)
    }

    static func named(_ name: String, version: UInt64 = 150) -> Dataset {
        Harness.liveDataset(version: version) { entries, _ in entries[0].station.name = name }
    }

    @Test func aLongNameWithControlCharactersIsRefusedAndTheNextHealthyDatasetFollowed() {
        expectRefusedThenRecovered(Self.named(String(repeating: "A\u{07}", count: 256)), .text, saying: "name of 512 characters")
    }

    @Test(arguments: [
        (String(repeating: "N", count: 121), false), (String(repeating: "N", count: 120), true),
        ("Tab\there", false), ("Line\nbreak", false), ("Café Ünïcode", true),
    ])
    func aNameIsJudgedByTheFeedsTextRules(_ name: String, accepted: Bool) {
        let (applied, follower) = offered(Self.named(name))
        #expect(applied == accepted, "\(follower.lastError)")
        #expect(follower.refusals(.text) == (accepted ? 0 : 1))
    }

    // MARK: The leader's provider statuses

    @Test func theLeadersProviderHealthIsCopiedWithEachSync() async throws {
        let (leader, follower) = try setUp(serving: healthy(101))
        defer { leader.stop() }
        var failing = ProviderHealth()
        failing.state = .failing
        failing.lastError = "HTTP 503 from FuelWatch"
        failing.consecutiveFailures = 4
        try leader.report([.wa: failing, .nsw: ProviderHealth()])
        #expect(await follower.service.syncOnce())
        #expect(follower.service.status.leaderProviders?[.wa]?.state == .failing)
        #expect(follower.service.status.leaderProviders?[.wa]?.lastError == "HTTP 503 from FuelWatch")
        // Recovered at the leader: seen on the next sync, though the dataset is unchanged (a 304).
        try leader.report([.wa: ProviderHealth(), .nsw: ProviderHealth()])
        #expect(await follower.service.syncOnce() == false)
        #expect(follower.service.status.leaderProviders?[.wa]?.state == .ok)
    }
}

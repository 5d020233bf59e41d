import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
@testable import API
@testable import App

/// A follower that already serves (and has persisted) a good live dataset, pointed at a leader a test controls,
/// and what a user can see of it: a station's bytes, `/health`, the files in its data directory.
struct FollowerHarness {
    let app: Application
    let port: Int
    let dataDirectory: String

    /// The sample data, relabelled live and cut to 50 stations per provider (rendering thousands per follower
    /// only slows the whole parallel test run), at `version`; `edit` changes entries and statuses.
    static func liveDataset(
        version: UInt64, edit: (inout [StationEntry], inout [ProviderStatus]) -> Void = { _, _ in }
    ) -> Dataset {
        let sample = AppTestSupport.sampleDataset
        var entries: [StationEntry] = []
        var perProvider: [ProviderID: Int] = [:]
        for entry in sample.snapshot.entries {
            perProvider[entry.station.provider, default: 0] += 1
            if perProvider[entry.station.provider]! <= 50 { entries.append(entry) }
        }
        var statuses = sample.snapshot.statuses.map { status in
            var status = status
            status.source = .live
            return status
        }
        edit(&entries, &statuses)
        let snapshot = Snapshot(version: version, changedAt: sample.snapshot.changedAt, entries: entries, statuses: statuses)
        return Dataset(snapshot: snapshot, registry: sample.registry, history: sample.history)
    }

    static let good = liveDataset(version: 100)

    /// Starts a follower holding `good`, polling `leader` every 0.2 s, and waits until its copy is on disk.
    static func start(following leader: URL, limits: FollowLimits = FollowLimits()) async throws -> FollowerHarness {
        var config = AppTestSupport.config()
        config.loadSampleData = false
        config.followURL = leader
        config.followSeconds = 0.2
        config.followLimits = limits
        let app = try buildApplication(config, logger: AppTestSupport.quietLogger(), dataset: good).app
        let harness = FollowerHarness(app: app, port: try app.startLive(), dataDirectory: config.dataDirectory)
        let persisted = await eventually(seconds: 60) { harness.persistedFiles().count == DataDirectory.File.allCases.count }
        guard persisted else { throw TestFailure("the follower never persisted its starting dataset") }
        try await Task.sleep(nanoseconds: 500_000_000)  // let a save in progress finish
        return harness
    }

    func stop() { app.shutdown() }

    func get(_ path: String) async throws -> (status: Int, body: Data) {
        let got = try await LiveGet(port: port, path)
        return (got.status, got.body)
    }

    func health() async throws -> [String: Any] {
        try require(try JSONSerialization.jsonObject(with: try await get("/health").body) as? [String: Any])
    }

    /// `follow.status` and `follow.last_error` from `/health`.
    func follow() async throws -> (status: String?, lastError: String?) {
        let follow = try await health()["follow"] as? [String: Any]
        return (follow?["status"] as? String, follow?["last_error"] as? String)
    }

    /// The persisted copy: each file of the data directory that exists, by name.
    func persistedFiles() -> [String: Data] {
        var files: [String: Data] = [:]
        for name in DataDirectory.File.allCases.map(\.rawValue) {
            files[name] = FileManager.default.contents(atPath: dataDirectory + "/" + name)
        }
        return files
    }
}

/// Polls `condition` every 50 ms until it holds or `seconds` pass.
func eventually(seconds: Double, _ condition: () async throws -> Bool) async -> Bool {
    let deadline = Date().addingTimeInterval(seconds)
    while Date() < deadline {
        if (try? await condition()) == true { return true }
        try? await Task.sleep(nanoseconds: 50_000_000)
    }
    // A starved test task may wake only after the deadline: judge the condition once more, not the scheduler.
    return (try? await condition()) == true
}

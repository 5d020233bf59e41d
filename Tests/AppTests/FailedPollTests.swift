import Foundation
import Fuel
import HTTP
import Providers
import Testing
@testable import API
@testable import App

/// A poller whose answer the test chooses: a transport-level failure, or a full feed that the merge refuses.
final class ScriptedPoller: ProviderPoller {
    enum Answer { case fail, emptyFeed }
    let provider: ProviderID
    let answer: Answer
    let interval: TimeInterval = 1800
    var plan: String { "\(provider.rawValue) (scripted)" }

    init(_ provider: ProviderID, _ answer: Answer) {
        self.provider = provider
        self.answer = answer
    }

    func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        switch answer {
        case .fail:
            return PollOutcome(.failed(.httpStatus(503, reason: "unavailable"), request: "GET /prices"), next: now.addingTimeInterval(interval))
        case .emptyFeed:
            let report = sink.apply(ProviderUpdate(provider: provider, stations: [], prices: [], asOf: now), at: now)
            return PollOutcome(.merged(report), next: now.addingTimeInterval(interval))
        }
    }
}

@Suite(.serialized) struct FailedPollTests {
    static let paths = ["/v1/stations?state=NSW", "/v1/stations?state=WA", "/v1/stations/1", "/v1/averages?state=NSW", "/v1/prices/changes"]

    /// ETag and Last-Modified of every path.
    static func validators(_ app: Application) throws -> [String: [String?]] {
        var out: [String: [String?]] = [:]
        for path in paths {
            let response = try app.test(.GET, path)
            #expect(response.status == .ok, "\(path)")
            out[path] = [response.headers.first(name: "ETag"), response.headers.first(name: "Last-Modified")]
        }
        return out
    }

    @Test func aFailedOrRefusedPollMovesNoValidatorAndNoFileWhileHealthShowsIt() async throws {
        let directory = AppTestSupport.temporaryDirectory()
        let (app, store) = try buildApplication(
            AppTestSupport.config(dataDirectory: directory), logger: AppTestSupport.quietLogger(), dataset: AppTestSupport.sampleDataset)
        _ = try app.startLive()
        defer { app.shutdown() }
        let file = DataDirectory(path: directory, logger: AppTestSupport.quietLogger()).url(.snapshot)
        #expect(try PersistenceTestSupport.wait(seconds: 20) { try PersistenceTestSupport.persistence(app)["last_save"] is String })
        let savedBytes = try #require(FileManager.default.contents(atPath: file))
        let before = try Self.validators(app)
        let version = store.current.version
        let persistence = try #require(app.services.lazy.compactMap { $0 as? PersistenceService }.first)
        let lastSave = persistence.health.lastSave

        let group = PollerGroup(
            pollers: [], sink: FuelStoreSink(store: store), log: PollLog { _, _ in }, statuses: try require(app.pollerStatuses))
        var failures = 0
        _ = await group.step(ScriptedPoller(.nsw, .fail), failures: &failures)
        failures = 0
        _ = await group.step(ScriptedPoller(.wa, .emptyFeed), failures: &failures)
        // What the persistence loop would do on its next tick, done now instead of waiting for it: the files
        // already hold the store's dataset, so nothing is (wrongly) saved.
        #expect(persistence.saveIfChanged())
        #expect(persistence.health.lastSave == lastSave)

        #expect(store.current.version == version)
        #expect(try Self.validators(app) == before)
        #expect(FileManager.default.contents(atPath: file) == savedBytes)

        let health = try PersistenceTestSupport.health(app)
        #expect(health["status"] as? String == "degraded")
        let providers = try require(health["providers"] as? [[String: Any]])
        let nsw = try require(providers.first { $0["provider"] as? String == "nsw" })
        #expect(nsw["status"] as? String == "failing")
        #expect(nsw["last_error"] as? String == "GET /prices: http 503: unavailable")
        #expect(nsw["consecutive_failures"] as? Int == 1)
        #expect(nsw["next_poll"] is String)
        #expect((nsw["stations"] as? Int ?? 0) > 0, "the data is still counted")
        let wa = try require(providers.first { $0["provider"] as? String == "wa" })
        #expect(wa["status"] as? String == "stale")
        #expect((wa["last_error"] as? String)?.contains("empty update") == true, "\(wa)")

        let metrics = try app.test(.GET, "/metrics").bodyString
        #expect(metrics.contains(#"petty_provider_failures_total{provider="nsw"} 1"#), "\(metrics.prefix(2000))")
    }
}

import Foundation
import Fuel
import HTTP
import Providers
import Testing
@testable import API
@testable import App

/// A running follower (real sockets, its own polling loop) as an operator sees it.
@Suite(.longScenario) struct FollowerLeaderHealthTests {
    /// What an operator sees on a running follower: the leader's provider failure in `/health`, marked as seen
    /// through the leader, and the refused datasets by reason in `/metrics`.
    @Test func aFollowersHealthShowsTheLeadersProvidersAndMetricsCountRefusals() async throws {
        let leader = try FakeLeader(serving: FollowerHarness.good).start()
        defer { leader.stop() }
        var failing = ProviderHealth()
        failing.state = .failing
        failing.lastError = "HTTP 503 from FuelWatch"
        try leader.report([.wa: failing])
        let follower = try await FollowerHarness.start(following: leader.url)
        defer { follower.stop() }
        func wa() async throws -> [String: Any]? {
            let providers = try await follower.health()["providers"] as? [[String: Any]]
            return providers?.first { $0["provider"] as? String == "wa" }
        }
        #expect(await eventually(seconds: 30) { try await wa()?["status"] as? String == "failing" })
        let seen = try await wa()
        #expect(seen?["seen_through"] as? String == "leader")
        #expect(seen?["last_error"] as? String == "HTTP 503 from FuelWatch")
        #expect(try await follower.health()["status"] as? String == "degraded")

        var flipped = try ReplicationPayload.encodeSealed(FollowerHarness.liveDataset(version: 101))
        flipped[flipped.count / 2] ^= 0x20
        leader.serve(raw: flipped, etag: "\"flipped\"")
        #expect(await eventually(seconds: 30) { try await follower.follow().lastError?.contains("checksum mismatch") == true })
        let metrics = String(decoding: try await follower.get("/metrics").body, as: UTF8.self)
        #expect(metrics.contains("petty_follower_datasets_refused_total{reason=\"checksum\"} 1"), "\(metrics.split(separator: "\n").filter { $0.contains("refused") })")
        #expect(metrics.contains("petty_follower_datasets_refused_total{reason=\"version_jump\"} 0"))
    }
}

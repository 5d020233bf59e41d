import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite(.serialized, .longScenario) struct FollowerTests {
    func get(_ port: Int, _ path: String) async throws -> (Int, Data, String?) {
        let got = try await LiveGet(port: port, path)
        return (got.status, got.body, got.response?.value(forHTTPHeaderField: "ETag"))
    }

    @Test func aFollowerServesTheLeadersDataAndKeepsItWhenTheLeaderDies() async throws {
        let leader = try AppTestSupport.sampleApp()
        let leaderPort = try leader.startLive()
        var config = AppTestSupport.config()
        config.loadSampleData = false
        config.followURL = URL(string: "http://127.0.0.1:\(leaderPort)")
        config.followSeconds = 1
        let follower = try buildApplication(config, logger: AppTestSupport.quietLogger()).app
        let followerPort = try follower.startLive()
        defer { follower.shutdown() }

        // The first copy checks every value and trust rule of the whole sample dataset: seconds in a loaded debug build.
        let copied = await eventually(seconds: 60) { try await get(followerPort, "/v1/stations/1").0 == 200 }
        #expect(copied)
        for path in ["/v1/stations/1", "/v1/stations?state=WA", "/v1/trends?state=VIC&fuel=U91"] {
            let (_, leaderBody, leaderTag) = try await get(leaderPort, path)
            let (_, followerBody, followerTag) = try await get(followerPort, path)
            #expect(leaderBody == followerBody, "\(path)")
            #expect(leaderTag == followerTag, "\(path): the same data gives the same ETag on every instance")
        }

        leader.shutdown()
        try await Task.sleep(nanoseconds: 2_500_000_000)
        let (status, _, _) = try await get(followerPort, "/v1/stations/1")
        #expect(status == 200)
        let (_, healthBody, _) = try await get(followerPort, "/health")
        let health = try #require(try JSONSerialization.jsonObject(with: healthBody) as? [String: Any])
        let follow = try #require(health["follow"] as? [String: Any])
        #expect(follow["status"] as? String == "failing")
        #expect(health["status"] as? String == "degraded")
    }

    @Test func theDatasetIsOnlyForAllowedFollowers() throws {
        let app = try AppTestSupport.sampleApp()
        try AppTestSupport.expectInternalOnly(app, "/internal/v1/dataset")
        try AppTestSupport.expectInternalOnly(app, "/internal/v1/providers")
    }

    @Test func aFollowerAskingForTheSealedFormGetsTheChecksummedBody() throws {
        let app = try AppTestSupport.sampleApp()
        let sealed = try app.test(.GET, "/internal/v1/dataset", headers: ["Accept": DatasetWire.sealedContentType])
        #expect(sealed.headers.first(name: "Content-Type") == DatasetWire.sealedContentType)
        #expect(sealed.headers.first(name: "Vary") == "Accept")
        #expect(try ReplicationPayload.open(Array(sealed.body)).snapshot == AppTestSupport.sampleDataset.snapshot)
        let plain = try app.test(.GET, "/internal/v1/dataset")
        #expect(throws: DatasetRefusal.self) { try ReplicationPayload.open(Array(plain.body)) }
        #expect(Array(sealed.body) == FileSeal.seal(Array(plain.body)))
        #expect(ReplicationPayload.checksum(ofSealed: Array(sealed.body)) == FileSeal.hex(FileSeal.fnv1a64(plain.body[...])))
    }

    @Test func anUnchangedDatasetCostsOne304() throws {
        let app = try AppTestSupport.sampleApp()
        let first = try app.test(.GET, "/internal/v1/dataset")
        let etag = try #require(first.headers.first(name: "ETag"))
        #expect(try app.test(.GET, "/internal/v1/dataset", headers: ["If-None-Match": etag]).status == .notModified)
        let dataset = try ReplicationPayload.decode(first.body)
        #expect(dataset.snapshot == AppTestSupport.sampleDataset.snapshot)
        // Followers serve station price history too.
        #expect(!dataset.stationHistory.tracks.isEmpty)
        #expect(dataset.stationHistory == AppTestSupport.sampleDataset.stationHistory)
        // A leader from before station history ends after the trend history: still accepted, with none.
        let older = Array(first.body.dropLast(4 + StationHistoryCodec.encode(dataset.stationHistory).count))
        let fromOlder = try ReplicationPayload.decode(older)
        #expect(fromOlder.snapshot == dataset.snapshot && fromOlder.stationHistory.tracks.isEmpty)
    }
}

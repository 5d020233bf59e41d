import Coordination
import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// A fleet member stuck behind the published dataset says so (issue 46 item 3): `FollowLag`'s rule, then what
/// `/health` and `/metrics` show.
@Suite struct FleetHealthTests {
    @Test func aFollowerBehindThePointerForOverALeaseIsStuckOnceAndRecovers() {
        var lag = FollowLag(limit: 10)
        lag.observe(serving: true, at: 0)
        lag.observe(serving: false, at: 1)
        lag.observe(serving: false, at: 11)
        #expect(!lag.stuck, "behind for exactly a lease: not yet")
        lag.observe(serving: false, at: 11.5)
        lag.observe(serving: false, at: 40)
        #expect(lag.stuck && lag.episodes == 1)
        #expect(lag.secondsBehind(at: 40) == 39)
        lag.observe(serving: true, at: 41)
        #expect(!lag.stuck && lag.secondsBehind(at: 41) == 0)
        lag.observe(serving: false, at: 50)
        lag.observe(serving: false, at: 61)
        #expect(lag.stuck && lag.episodes == 2)
    }

    @Test func servingIsTheSameVersionAndBody() {
        let pointer = DatasetPointer(version: 9, epoch: 3, url: "http://a/internal/v1/dataset", checksum: "fnv1a64:a", asOf: nil)
        #expect(FollowLag.serves(pointer, heldVersion: 9, heldChecksum: "fnv1a64:a"))
        #expect(FollowLag.serves(pointer, heldVersion: 9, heldChecksum: nil), "loaded from disk: the body is not known")
        #expect(!FollowLag.serves(pointer, heldVersion: 9, heldChecksum: "fnv1a64:b"))
        #expect(!FollowLag.serves(pointer, heldVersion: 8, heldChecksum: "fnv1a64:a"))
        #expect(!FollowLag.serves(pointer, heldVersion: 10, heldChecksum: nil), "ahead of the fleet is not serving it either")
    }

    static func info(degraded: String?) -> CoordinationInfo {
        CoordinationInfo(
            mode: "fleet", role: "follower", epoch: 3, leader: .init(name: "a:1", url: "http://a:1"), leaseSecondsLeft: 0, etcd: "ok",
            lastElection: nil, waiting: nil,
            dataset: .init(heldEpoch: 3, publishedVersion: 9, publishedEpoch: 3, lastApplied: nil, lastError: "refused: older dataset"),
            leaderChanges: 1, leaseRenewalsFailed: 0, degraded: degraded, stuckEpisodes: degraded == nil ? 0 : 1)
    }

    func health(degraded: String?) throws -> (JSONValue, TestResponse) {
        var context = PettyContext(store: makePettyStore(FollowerHarness.good), clock: { Date() }, startedAt: Date(), appStoreID: nil)
        let info = Self.info(degraded: degraded)
        context.coordination = { info }
        let app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        try routes(app, context: context, version: "t", detail: InternalAccess(allowed: []))
        let response = try app.test(.GET, "/health")
        return (try JSONParser.parse(response.body), response)
    }

    @Test func aStuckFollowerIsDegradedInHealthWithTheReasonAndTheContractHolds() throws {
        let (stuck, _) = try health(degraded: "not serving the published v9 (epoch 3) for 12 s: refused: older dataset")
        #expect(stuck["status"]?.stringValue == "degraded")
        #expect(stuck["coordination"]?["degraded"]?.stringValue == "behind the published dataset", "the public view hides the refusal")
        #expect(stuck["coordination"]?["stuck_episodes"]?.doubleValue == 1)
        let (fine, _) = try health(degraded: nil)
        #expect(fine["status"]?.stringValue == "ok")
        #expect(fine["coordination"]?["degraded"] == nil)
        let spec = try OpenAPISpec.load()
        let schema = try #require(spec.validator.resolve("#/components/schemas/Health"))
        for body in [stuck, fine] {
            let problems = spec.validator.validate(body, against: schema)
            #expect(problems.isEmpty, "\(problems)")
        }
    }

    @Test func theMetricsCountIt() {
        var out = PrometheusText()
        FleetMetrics.write(Self.info(degraded: "behind"), to: &out)
        let lines = out.text.split(separator: "\n").map(String.init)
        #expect(lines.contains("petty_fleet_follower_stuck 1"))
        #expect(lines.contains("petty_fleet_follower_stuck_total 1"))
    }
}

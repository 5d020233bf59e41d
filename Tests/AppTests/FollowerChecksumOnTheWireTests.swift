import Foundation
import Fuel
import Testing
@testable import API
@testable import App
import TestSupport

/// The checksum against damage in transit: thirty real payloads, each with one bit flipped, served by a fake leader
/// on loopback and synced by a follower (the trust rules' harness). A long scenario: thirty multi-megabyte
/// transfers and checksums are most of a minute of CPU on 2 cores.
@Suite(.serialized, .longScenario) struct FollowerChecksumOnTheWireTests {
    typealias Follower = FollowerTrustRulesTests.Follower
    static let held = FollowerTrustRulesTests.held
    let rules = FollowerTrustRulesTests()

    @Test func thirtySingleBitFlipsOfARealPayloadAreAllRefused() async throws {
        let intact = try ReplicationPayload.encodeSealed(rules.healthy(101))
        let (leader, follower) = try rules.setUp(serving: Self.held)
        defer { leader.stop() }
        var rng = SplitMix64(seed: 0xF11B_5EED)
        // 25 anywhere in the body, 5 in the checksum line.
        let offsets = (0..<25).map { _ in Int(rng.next() % UInt64(intact.count)) }
            + (0..<5).map { _ in intact.count - 1 - Int(rng.next() % UInt64(FileSeal.trailerLength)) }
        var refused = 0
        for (index, offset) in offsets.enumerated() {
            var flipped = intact
            flipped[offset] ^= 1 << UInt8(rng.next() % 8)
            leader.serve(raw: flipped, etag: "\"flip-\(index)\"")
            if await follower.service.syncOnce() == false, follower.store.current.dataset == Self.held { refused += 1 }
        }
        print("replication payload bit flips: \(offsets.count) tried, \(refused) refused, \(follower.refusals(.checksum)) by the checksum")
        #expect(refused == 30)
        #expect(follower.refusals(.checksum) == 30)
        leader.serve(raw: intact, etag: "\"intact\"")
        #expect(await follower.service.syncOnce())
        #expect(follower.version == 101)
    }
}

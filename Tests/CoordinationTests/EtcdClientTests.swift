import Foundation
import TestSupport
import Testing
@testable import Coordination

/// The etcd client against a local fake of the JSON gateway (`FakeEtcd`).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct EtcdClientTests {
    @Test func aCampaignCreatesTheLeaderKeyOnlyWhenItDoesNotExist() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url])
        let first = try await client.grant(ttl: 5), second = try await client.grant(ttl: 5)
        let absent = [EtcdCreateRevisionEquals(key: "/f/leader", revision: 0)]
        let won = try await client.txn(when: absent, then: [EtcdPut(key: "/f/leader", value: Array("a".utf8), lease: first.id)])
        #expect(won.succeeded)
        #expect(etcd.entry("/f/leader")?.createRevision == won.revision)
        #expect(etcd.entry("/f/leader")?.lease == first.id)
        let lost = try await client.txn(when: absent, then: [EtcdPut(key: "/f/leader", value: Array("b".utf8), lease: second.id)])
        #expect(!lost.succeeded)  // etcd omits `succeeded: false`
        #expect(etcd.value("/f/leader") == "a")
    }

    @Test func aKeepAliveOfALapsedLeaseAnswersWithoutTTL() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url], streamsKeepAlives: false)
        let lease = try await client.grant(ttl: 5)
        #expect(try await client.keepAlive(lease.id) == 5)
        etcd.expire(lease.id)
        #expect(try await client.keepAlive(lease.id) == 0)
    }

    @Test func aPublishGuardedByAnOldEpochIsRefused() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url])
        etcd.put("/f/leader", "old")
        let epoch = try #require(etcd.entry("/f/leader")).createRevision
        etcd.delete("/f/leader")
        etcd.put("/f/leader", "new")
        let result = try await client.txn(
            when: [EtcdCreateRevisionEquals(key: "/f/leader", revision: epoch)], then: [EtcdPut(key: "/f/dataset", value: Array("v9".utf8))])
        #expect(!result.succeeded)
        #expect(etcd.value("/f/dataset") == nil)
    }

    @Test func anExpiredTokenIsRenewedOnceAndTheCallGoesThrough() async throws {
        let etcd = try FakeEtcd(user: ("petty", "s3cret")).start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url], credentials: EtcdCredentials(username: "petty", password: "s3cret"))
        etcd.put("/f/ids", "12")
        #expect(try await client.range(prefix: "/f/").map(\.key) == ["/f/ids"])
        #expect(etcd.authentications == 1)
        etcd.expireTokens()
        #expect(try await client.range(prefix: "/f/").map(\.key) == ["/f/ids"])
        #expect(etcd.authentications == 2)
    }

    @Test func wrongCredentialsAreAnAuthenticationErrorNamingWhy() async throws {
        let etcd = try FakeEtcd(user: ("petty", "s3cret")).start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url], credentials: EtcdCredentials(username: "petty", password: "wrong"))
        await #expect(throws: EtcdError.authentication("etcdserver: authentication failed, invalid user ID or password")) {
            _ = try await client.grant(ttl: 5)
        }
    }

    @Test func zeroFieldsLeftOutOfTheJSONReadAsZero() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url])
        etcd.put("/f/empty", "")  // no `value`, no `lease` in the answer
        let kvs = try await client.range(prefix: "/f/")
        #expect(kvs == [EtcdKeyValue(key: "/f/empty", value: [], createRevision: kvs.first?.createRevision ?? -1, modRevision: kvs.first?.modRevision ?? -1, lease: 0)])
        #expect(kvs.first?.createRevision ?? 0 > 0)
        #expect(try await client.range(prefix: "/nothing/") == [])  // no `kvs` at all
    }

    @Test func aDeadEndpointFailsOverToTheNextAndTheLiveOneIsPreferred() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let dead = URL(string: "http://127.0.0.1:1")!
        let client = EtcdClient(endpoints: [dead, etcd.url], timeout: 1)
        _ = try await client.grant(ttl: 5)
        #expect(client.currentEndpoint == etcd.url)
    }

    @Test func noEndpointAnsweringIsUnreachable() async throws {
        let client = EtcdClient(endpoints: [URL(string: "http://127.0.0.1:1")!], timeout: 1)
        await #expect {
            _ = try await client.grant(ttl: 5)
        } throws: { error in
            if case .unreachable = error as? EtcdError { return true }
            return false
        }
    }

    @Test func theRangeEndOfAPrefixIsItsLastByteIncremented() {
        #expect(ProtoJSON.prefixEnd("/petty/") == Array("/petty0".utf8))
        #expect(ProtoJSON.prefixEnd("ab") == Array("ac".utf8))
    }
}

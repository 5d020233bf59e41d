import FakeRelay
import Foundation
import Synchronization
import Testing

@testable import Push

/// The gorush client against the fake relay on a real socket: the request format, batching, dead tokens, retries.
@Suite(.serialized)
struct GorushClientTests {
    final class Sleeps: Sendable {
        let taken = Mutex<[Double]>([])
        var values: [Double] { taken.withLock { $0 } }
        var sleep: GorushClient.Sleep { { delay in self.taken.withLock { $0.append(delay) } } }
    }

    func message(_ n: Int, platform: PushMessage.Platform = .ios) -> PushMessage {
        PushMessage(token: "token-\(String(repeating: "x", count: 40))-\(n)", platform: platform, title: "Station \(n)", message: "U91 is 184.9 c/L",
                    collapseID: "petty-a1.s\(n).U91.v9", data: PushData(alertID: 1, stationID: n, fuel: "U91", price: 184.9, url: "https://petty.example/stations/\(n)"))
    }

    func client(_ relay: FakeRelay, sleeps: Sleeps = Sleeps(), timeout: Double = 5, attempts: Int = 4) -> GorushClient {
        GorushClient(settings: PushSettings(url: relay.baseURL, authorization: "Bearer relay-key", topic: "au.petty.app", timeout: timeout,
                                            retry: PushRetry(attempts: attempts)), sleep: sleeps.sleep)
    }

    @Test func aPushCarriesGorushsFieldsForEachPlatform() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        let outcome = try await client(relay).send([message(1), message(2, platform: .android)])
        #expect(outcome.deliveries == [.accepted, .accepted] && outcome.requests == 1)
        let received = relay.received
        #expect(received.map(\.platform) == [1, 2])
        #expect(received[0].collapseID == "petty-a1.s1.U91.v9" && received[0].topic == "au.petty.app")
        #expect(received[1].collapseID == "petty-a1.s2.U91.v9" && received[1].topic == nil)
        #expect(received[0].data == ["alert_id": "1", "station_id": "1", "fuel": "U91", "price": "184.9", "url": "https://petty.example/stations/1"])
        #expect(received[0].authorization == "Bearer relay-key")
    }

    @Test func aRequestCarriesAtMostAHundredTokens() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        _ = try await client(relay).send((1...250).map { message($0) })
        #expect(relay.tokensPerRequest == [100, 100, 50])
        #expect(relay.received.count == 250)
    }

    @Test func tokensTheRelayReportsDeadAreReturnedAndOthersDelivered() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        relay.markDead(message(2).token)
        relay.markDead(message(3, platform: .android).token)
        let outcome = try await client(relay).send([message(1), message(2), message(3, platform: .android)])
        #expect(outcome.deliveries == [.accepted, .dead("Unregistered"), .dead("NotRegistered")])
        #expect(relay.received.map(\.token) == [message(1).token])
    }

    /// A request the relay never takes ends the call, but the requests before it were taken: their pushes stand as
    /// delivered (marking them for another try would push them twice), the rest are `notSent`.
    @Test func aRelayFailingMidwayKeepsWhatItTookBeforeIt() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        relay.set(.after(1, .status(503)))
        let outcome = try await client(relay, attempts: 2).send((1...150).map { message($0) })
        #expect(outcome.deliveries == Array(repeating: .accepted, count: 100) + Array(repeating: .notSent, count: 50))
        #expect(outcome.relayFailure == .relay("HTTP 503 after 2 attempts") && outcome.requests == 3)
        #expect(relay.received.count == 100)
    }

    /// gorush names a failed push by its token alone: two pushes to one phone go in different requests, so a
    /// failure names exactly one of them.
    @Test func aTokenAppearsOnceARequestSoEachFailureNamesOnePush() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        let phone = message(1)
        var again = message(1)
        again.collapseID = "petty-a2.s1.U91.v9"
        relay.failNext(phone.token, error: "PayloadTooLarge")
        let outcome = try await client(relay).send([phone, again, message(2)])
        #expect(relay.tokensPerRequest == [2, 1])
        #expect(outcome.deliveries == [.failed("PayloadTooLarge"), .accepted, .accepted])
        #expect(relay.received.map(\.collapseID) == ["petty-a1.s2.U91.v9", "petty-a2.s1.U91.v9"])
        #expect(GorushClient.batches((1...5).map { _ in phone }, size: 100) == [[0], [1], [2], [3], [4]])
        #expect(GorushClient.batches((1...5).map { message($0) }, size: 2) == [[0, 1], [2, 3], [4]])
    }

    @Test func aFailingRelayIsRetriedWithCappedBackoff() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        relay.set(.times(3, .status(502)))
        let sleeps = Sleeps()
        let outcome = try await client(relay, sleeps: sleeps).send([message(1)])
        #expect(outcome.requests == 4)
        #expect(sleeps.values == [0.5, 1, 2])
        #expect(relay.received.count == 1)
        #expect(PushRetry(attempts: 9, base: 0.5, cap: 8).delay(afterFailures: 8) == 8, "the backoff stops growing at its cap")
    }

    @Test func aRelayDownForEveryAttemptFailsTheBatch() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        relay.set(.status(503))
        let outcome = try await client(relay, attempts: 3).send([message(1)])
        #expect(outcome.deliveries == [.notSent] && outcome.relayFailure == .relay("HTTP 503 after 3 attempts"))
        #expect(relay.requests == 3)
    }

    @Test func aClientErrorIsNotRetried() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        relay.set(.status(400))
        let outcome = try await client(relay).send([message(1)])
        #expect(outcome.deliveries == [.notSent] && outcome.relayFailure != nil)
        #expect(relay.requests == 1)
    }

    @Test func aRequestThatTimesOutIsRetried() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        let real = GorushClient.urlSession(timeout: 5)
        let calls = Mutex(0)
        let transport: GorushClient.Transport = { request in
            let call = calls.withLock { $0 += 1; return $0 }
            if call == 1 { throw URLError(.timedOut) }
            return try await real(request)
        }
        let sleeps = Sleeps()
        let client = GorushClient(settings: PushSettings(url: relay.baseURL), transport: transport, sleep: sleeps.sleep)
        let outcome = try await client.send([message(1)])
        #expect(outcome.requests == 2 && sleeps.values == [0.5])
        #expect(relay.received.count == 1)
    }

    @Test func aLogLineShowsAtMostATokensLastSixCharacters() async throws {
        let relay = try FakeRelay().start()
        defer { relay.stop() }
        relay.markDead(message(1).token)
        let lines = Mutex<[String]>([])
        let client = GorushClient(settings: PushSettings(url: relay.baseURL), log: { line in lines.withLock { $0.append(line) } })
        _ = try await client.send([message(1)])
        let logged = lines.withLock { $0 }.joined(separator: "\n")
        #expect(logged.contains("…xxxx-1"))
        #expect(!logged.contains(message(1).token))
    }

    @Test func settingsComeFromTheEnvironmentAndRefuseANonHTTPURL() throws {
        #expect(try PushSettings(environment: [:]) == nil)
        let settings = try #require(try PushSettings(environment: ["PETTY_PUSH_URL": "http://127.0.0.1:8088", "PETTY_PUSH_AUTHORIZATION": "key=abc", "PETTY_PUSH_TOPIC": "au.petty"]))
        #expect(settings.endpoint.absoluteString == "http://127.0.0.1:8088/api/push")
        #expect(settings.authorization == "key=abc" && settings.topic == "au.petty")
        #expect(throws: PushError.self) { try PushSettings(environment: ["PETTY_PUSH_URL": "gorush:8088"]) }
    }
}

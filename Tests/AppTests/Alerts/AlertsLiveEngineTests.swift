import AlertStore
import FakeRelay
import Foundation
import Fuel
import Synchronization
import Testing

@testable import App

/// The evaluator and the sender against a real PostgreSQL and the fake relay (Tests/postgres/run.sh AlertsLive).
@Suite(.serialized, .enabled(if: AlertsLiveWorld.base != nil, AlertsLiveWorld.skipReason))
struct AlertsLiveEngineTests {
    @Test func aCrossingGivesExactlyOneOutboxRowAndOneDelivery() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.crossTheThreshold()
            await world.evaluator.tick()
            #expect(try await world.notificationCount() == 1)
            let sender = world.sender()
            #expect(try await sender.deliverOnce() == 1)
            #expect(try await sender.deliverOnce() == 0)
            let received = world.relay.received
            #expect(received.count == 1)
            #expect(received.first?.message == "U91 is 184.0 c/L, at or below your 185.0")
            #expect(received.first?.collapseID == "petty-a1.s1.U91.v2")
            #expect(received.first?.data["url"] == "https://petty.example/stations/1")
            #expect(world.healthValue.withLock { ($0.lastEvaluatedVersion, $0.decisions, $0.sent, $0.backlog) } == (2, 1, 1, 0))
        }
    }

    @Test func aSenderCrashBetweenSendingAndMarkingResendsWithTheSameCollapseID() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.crossTheThreshold()
            let crashed = world.sender()
            // Sent, then "killed" before recording.
            _ = try await crashed.send(try await OutboxRepository(client: world.client).dueForDelivery(limit: 10))
            #expect(world.relay.received.count == 1)
            #expect(try await world.sender().deliverOnce() == 1)
            let received = world.relay.received
            #expect(received.count == 2)
            #expect(Set(received.compactMap(\.collapseID)) == ["petty-a1.s1.U91.v2"])
            #expect(try await world.sender().deliverOnce() == 0)
        }
    }

    @Test func aFullBatchIsFollowedByTheNextAtOnceNotAfterTheIdleInterval() async throws {
        try await AlertsLiveWorld.with { world in
            for n in 0..<3 { _ = try await world.subscribe(token: "apns-token-\(n)-0123456789abcdef") }
            await world.crossTheThreshold()
            #expect(try await world.notificationCount() == 3)
            // Batches of 2: the first pass is full, so the second must follow before the sender first idles.
            let receivedAtFirstIdle = Mutex<[Int]>([])
            let sender = world.sender(batch: 2) { _ in
                receivedAtFirstIdle.withLock { $0.append(world.relay.received.count) }
                throw CancellationError()
            }
            try await sender.run()
            #expect(receivedAtFirstIdle.withLock { $0 } == [3])
        }
    }

    @Test func aFullBatchTheRelayRefusedIdlesBeforeTheNextPass() async throws {
        try await AlertsLiveWorld.with { world in
            for n in 0..<3 { _ = try await world.subscribe(token: "apns-token-\(n)-0123456789abcdef") }
            await world.crossTheThreshold()
            world.relay.set(.status(503))
            let waitingAtFirstIdle = Mutex<[Int]>([])
            let sender = world.sender(batch: 2) { _ in
                let waiting = try await world.client.query("SELECT count(*) AS n FROM notifications WHERE deliver_after > now()").first?.int("n") ?? -1
                waitingAtFirstIdle.withLock { $0.append(waiting) }
                throw CancellationError()
            }
            try await sender.run()
            #expect(waitingAtFirstIdle.withLock { $0 } == [2], "the refused pass's 2 rows wait for their retry; the third was not tried yet")
            #expect(world.relay.received.isEmpty)
        }
    }

    /// The relay took the first request of a pass and then went down: the pushes it took are marked sent and only
    /// the rest wait for their retry, so no phone is pushed twice.
    @Test func aRelayDownAfterTakingARequestResendsOnlyWhatItDidNotTake() async throws {
        try await AlertsLiveWorld.with { world in
            for n in 0..<3 { _ = try await world.subscribe(token: "apns-token-\(n)-0123456789abcdef") }
            await world.crossTheThreshold()
            world.relay.set(.after(1, .status(503)))
            #expect(try await world.sender(pushBatch: 2, retryDelay: 0).deliverOnce() == 2)
            let sent = try await world.client.query("SELECT count(*) AS n FROM notifications WHERE sent_at IS NOT NULL").first?.int("n")
            #expect(sent == 2, "the two the relay took")
            #expect(world.healthValue.withLock { $0.relay } != "ok", "the relay refused the pass's second request")
            world.relay.set(.normal)
            #expect(try await world.sender(retryDelay: 0).deliverOnce() == 1)
            let tokens = world.relay.received.map(\.token)
            #expect(tokens.count == 3 && Set(tokens).count == 3, "each phone pushed once: \(tokens)")
        }
    }

    /// Quiet hours hold when a push falls due, not only when it is decided: a push held by the hourly limit or a
    /// relay's retry into the device's quiet hours waits for their end, in the device's zone as it is then.
    @Test func aPushFallingDueInItsQuietHoursWaitsForTheirEnd() async throws {
        try await AlertsLiveWorld.with { world in
            let (device, _) = try await world.subscribe()
            let alert = Int64(try await world.client.query("SELECT id FROM alerts").first?.int("id") ?? 0)
            let sydney = TimeZone(identifier: "Australia/Sydney")!
            let local = TimeOfDay(Date(), in: sydney).minutes
            func hours(_ from: Int, _ to: Int) -> QuietHours {
                QuietHours(from: TimeOfDay(minutes: (local + from + 1_440) % 1_440)!, to: TimeOfDay(minutes: (local + to + 1_440) % 1_440)!)
            }
            func row(_ key: String, _ quiet: QuietHours) -> Decision {
                let decision = AlertDecision(key: key, alertID: alert, deviceID: device, station: 1, fuel: .U91, price: PriceTenths(tenths: 1_799),
                                             title: key, message: "U91 is 179.9 c/L", quietHours: quiet)
                return Decision(key: key, deviceID: device, alertID: alert, collapseID: "petty-\(key)", payload: AlertPayload(decision).json)
            }
            let token = try #require(world.token.withLock { $0 })
            try await OutboxRepository(client: world.client).decide([row("quiet", hours(-30, 30)), row("awake", hours(120, 180))], token: token)
            #expect(try await world.sender().deliverOnce() == 1)
            #expect(world.relay.received.map(\.title) == ["awake"])
            let waiting = try await world.client.query(
                "SELECT extract(epoch FROM deliver_after - now())::float8 AS wait FROM notifications WHERE decision_key = 'quiet' AND sent_at IS NULL")
            let wait = try #require(waiting.first.flatMap { $0["wait"] }.flatMap(Double.init))
            #expect(wait > 25 * 60 && wait <= 31 * 60, "held to the quiet hours' end, about 30 minutes on: \(wait) s")

            // The database chose a row as due; a sender clock 2 s short of the quiet hours' end counts it as reached
            // (holding it again would only repeat the pass until the clocks agree).
            let boundary = Date(timeIntervalSince1970: (Date().timeIntervalSince1970 / 60).rounded(.down) * 60 + 120)
            let end = TimeOfDay(boundary, in: sydney)
            let almost = QuietHours(from: TimeOfDay(minutes: (end.minutes + 1_380) % 1_440)!, to: end)
            try await OutboxRepository(client: world.client).decide([row("almost", almost)], token: token)
            #expect(try await world.sender(clock: { boundary - 2 }).deliverOnce() == 1)
            #expect(world.relay.received.map(\.title) == ["awake", "almost"])
        }
    }

    /// A push the platform refused for what it is (not a dead token) is tried again later each time, up to an hour
    /// apart, never dropped; a relay that took nothing is tried again after the flat retry delay.
    @Test func aRefusedPushIsRetriedLessOftenEachTimeButNeverDropped() async throws {
        try await AlertsLiveWorld.with { world in
            let (_, token) = try await world.subscribe()
            await world.crossTheThreshold()
            let sender = world.sender(retryDelay: 30)
            #expect([0, 1, 2, 7, 100].map { sender.refusedPushDelay(afterAttempts: $0) } == [30, 60, 120, 3_600, 3_600])
            func waitAfterARefusal() async throws -> Double {
                world.relay.failNext(token, error: "PayloadTooLarge")
                #expect(try await sender.deliverOnce() == 0)
                let row = try await world.client.query("SELECT extract(epoch FROM deliver_after - now())::float8 AS wait FROM notifications WHERE sent_at IS NULL")
                _ = try await world.client.query("UPDATE notifications SET deliver_after = now()")
                return try #require(row.first.flatMap { $0["wait"] }.flatMap(Double.init))
            }
            let first = try await waitAfterARefusal(), second = try await waitAfterARefusal()
            #expect(first > 25 && first <= 30, "\(first)")
            #expect(second > 55 && second <= 60, "\(second)")
            #expect(try await sender.deliverOnce() == 1, "delivered once the platform takes it")
        }
    }

    /// A relay down for longer than three tries (the 5 minutes): refused tries are not notifications, so the
    /// device's 3-an-hour limit must not hold the row back for an hour once the relay is back.
    @Test func refusedTriesDoNotCountTowardsTheHourlyLimit() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.crossTheThreshold()
            world.relay.set(.status(503))
            let sender = world.sender(retryDelay: 0)
            for _ in 0..<5 {
                #expect(try await sender.deliverOnce() == 0)
                #expect(world.healthValue.withLock { $0.relay } != "ok", "the relay refused every try")
            }
            world.relay.set(.normal)
            #expect(try await sender.deliverOnce() == 1)
            #expect(world.relay.received.count == 1)
            #expect(world.healthValue.withLock { $0.relay } == "ok")
        }
    }

    /// /health's backlog is what is still unsent: a row waiting for its retry counts, with its age since decided.
    @Test func aRowWaitingForItsRetryIsInTheBacklog() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.crossTheThreshold()
            world.relay.set(.status(503))
            #expect(try await world.sender(retryDelay: 600).deliverOnce() == 0)
            #expect(world.healthValue.withLock { $0.backlog } == 1)
            #expect((world.healthValue.withLock { $0.oldestUnsentSeconds } ?? -1) >= 0)
        }
    }

    @Test func aStaleFenceTokenDecidesNothing() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            _ = try await OutboxRepository(client: world.client).decide([], token: FenceToken(generation: 3, revision: 7))
            world.token.withLock { $0 = FenceToken(generation: 3, revision: 6) }
            await world.crossTheThreshold()
            #expect(try await world.notificationCount() == 0)
            #expect(world.healthValue.withLock { $0.evaluatorRole } == .standby)
            // The current leader's token decides the same crossing.
            world.token.withLock { $0 = FenceToken(generation: 3, revision: 8) }
            await world.evaluator.tick()
            await world.publish(3, station1: 1_830)
            #expect(try await world.notificationCount() == 1)
        }
    }

    /// A new leader fences the outbox before it loads the alert states: a deposed leader's late transaction either
    /// committed before that load (and is in the states read) or is refused, even when nothing new is published.
    @Test func aNewLeaderFencesTheDeposedOneBeforeReadingTheStates() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.publish(1, station1: 1_900)
            let outbox = OutboxRepository(client: world.client)
            #expect(try await outbox.fence() == FenceToken(generation: 0, revision: 1))
            world.token.withLock { $0 = FenceToken(generation: 0, revision: 2) }
            await world.evaluator.tick()
            #expect(try await outbox.fence() == FenceToken(generation: 0, revision: 2))
            await #expect(throws: AlertStoreError.self) { try await outbox.decide([], token: FenceToken(generation: 0, revision: 1)) }
        }
    }

    @Test func aDeadTokenStopsTheDevicesPushes() async throws {
        try await AlertsLiveWorld.with { world in
            let (device, token) = try await world.subscribe()
            world.relay.markDead(token)
            await world.crossTheThreshold()
            let sender = world.sender()
            #expect(try await sender.deliverOnce() == 0)
            let dead = try await world.client.query("SELECT token_dead FROM devices WHERE id = $1", [.text(String(device))]).first?.bool("token_dead")
            #expect(dead == true)
            // Re-armed and crossed again: decided, but never pushed to the dead token.
            await world.publish(3, station1: 1_900)
            await world.publish(4, station1: 1_800)
            #expect(try await world.notificationCount() == 2)
            #expect(try await sender.deliverOnce() == 0)
            #expect(world.relay.requests == 1)
            #expect(world.healthValue.withLock { $0.backlog } == 0)
        }
    }

    @Test func snapshotsPublishedWhileTheDatabaseWasDownAreEvaluatedWhenItReturns() async throws {
        try await AlertsLiveWorld.with { world in
            _ = try await world.subscribe()
            await world.publish(1, station1: 1_900)
            try await world.takeDatabaseDown()
            await world.publish(2, station1: 1_840)
            await world.publish(3, station1: 1_845)
            #expect(world.healthValue.withLock { $0.status } == .degraded)
            try await world.bringDatabaseBack()
            for _ in 0..<40 where world.healthValue.withLock({ $0.lastEvaluatedVersion }) != 3 {
                await world.evaluator.tick()
                try await Task.sleep(nanoseconds: 100_000_000)
            }
            let keys = try await world.client.query("SELECT decision_key FROM notifications").rows.compactMap { $0["decision_key"] }
            #expect(keys == ["a1.s1.U91.v3"], "the crossing is decided once, when the database returns")
        }
    }
}

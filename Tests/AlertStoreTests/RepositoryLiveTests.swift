import Crypto
import Fuel
import Foundation
import Testing
import AlertStore
import Postgres

@Suite(.enabled(if: AlertsLiveDatabase.isReachable, AlertsLiveDatabase.skipReason))
struct AlertsLiveRepositoryTests {
    static let watch = AlertDefinition(kind: .priceBelow, fuel: .U91, target: .stations([5158, 12]), threshold: PriceTenths(tenths: 1799))

    func migrated(_ body: @escaping (PostgresClient) async throws -> Void) async throws {
        try await AlertsLiveDatabase.withFreshDatabase { client, _ in
            try await Migrator().migrate(client)
            try await body(client)
        }
    }

    @Test func aDeviceSecretIsShownOnceStoredOnlyAsItsHashAndChecked() async throws {
        try await migrated { client in
            let devices = DeviceRepository(client: client)
            let (device, secret) = try await devices.create(platform: .ios, pushToken: "tok-123456", timeZone: "Australia/Perth")
            #expect(secret.text.count == 64)
            let stored = try await client.query("SELECT encode(secret_hash, 'hex') AS h FROM devices WHERE id = $1", [.text(String(device.id))])
            #expect(stored.first?["h"] == Hex.encode(SHA256.hash(Array(secret.text.utf8))))
            #expect(stored.first?["h"] != secret.text)
            #expect(try await devices.authenticate(id: device.id, secret: secret.text) == device)
            #expect(try await devices.authenticate(id: device.id, secret: DeviceSecret.generate().text) == nil)
            #expect(try await devices.authenticate(id: device.id, secret: "") == nil)
            #expect(try await devices.authenticate(id: device.id + 1000, secret: secret.text) == nil)
        }
    }

    @Test func rotatingTheTokenRevivesADeadDeviceAndTheZoneChangesAlone() async throws {
        try await migrated { client in
            let devices = DeviceRepository(client: client)
            let (device, _) = try await devices.create(platform: .android, pushToken: "old-token", timeZone: "Australia/Perth")
            try await devices.markTokenDead(id: device.id, token: "old-token")
            let zoned = try await devices.update(id: device.id, pushToken: nil, timeZone: "Australia/Sydney")
            #expect(zoned?.timeZone == "Australia/Sydney")
            #expect(zoned?.tokenDead == true, "a zone change alone does not revive a dead token")
            let rotated = try await devices.update(id: device.id, pushToken: "new-token", timeZone: nil)
            #expect(rotated == Device(id: device.id, platform: .android, pushToken: "new-token", timeZone: "Australia/Sydney", tokenDead: false))
            #expect(try await devices.update(id: device.id + 1000, pushToken: "x", timeZone: nil) == nil)
        }
    }

    @Test func deletingADeviceDeletesItsAlertsStatesAndNotifications() async throws {
        try await migrated { client in
            let devices = DeviceRepository(client: client)
            let (device, _) = try await devices.create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let (other, _) = try await devices.create(platform: .ios, pushToken: "u", timeZone: "Australia/Perth")
            let alert = try #require(try await AlertRepository(client: client).create(deviceID: device.id, Self.watch))
            let kept = try #require(try await AlertRepository(client: client).create(deviceID: other.id, Self.watch))
            try await OutboxRepository(client: client).decide(
                [Decision(key: "a", deviceID: device.id, alertID: alert.id, collapseID: "c", payload: "{}"),
                 Decision(key: "b", deviceID: other.id, alertID: kept.id, collapseID: "c", payload: "{}")],
                states: [AlertStationState(alertID: alert.id, stationID: 5158, armed: false, lastNotifiedTenths: 1789)],
                token: FenceToken(generation: 1, revision: 1))
            #expect(try await devices.delete(id: device.id))
            #expect(try await !devices.delete(id: device.id))
            for table in ["alerts", "alert_states", "notifications"] {
                let left = try await client.query("SELECT count(*) AS n FROM \(table) WHERE \(table == "alert_states" ? "alert_id" : "device_id") = $1",
                                                  [.text(String(table == "alert_states" ? alert.id : device.id))])
                #expect(left.first?["n"] == "0", "\(table)")
            }
            #expect(try await client.query("SELECT count(*) AS n FROM notifications").first?["n"] == "1", "the other device's stays")
        }
    }

    /// The evaluator holds the alerts in memory and hears of changes on the changes channel: a deleted device's
    /// alerts are announced one by one (as a deleted alert is), or they would be evaluated until the next reload.
    @Test func deletingADeviceAnnouncesEachOfItsAlerts() async throws {
        try await migrated { client in
            let devices = DeviceRepository(client: client)
            let alerts = AlertRepository(client: client)
            let (device, _) = try await devices.create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let first = try #require(try await alerts.create(deviceID: device.id, Self.watch))
            let second = try #require(try await alerts.create(deviceID: device.id, Self.watch))
            let received = AsyncStream<PostgresClient.ListenEvent>.makeStream()
            let listening = Task { try await client.listen(on: AlertRepository.changesChannel) { received.continuation.yield($0) } }
            defer { listening.cancel() }
            var events = received.stream.makeAsyncIterator()
            #expect(await events.next() == .listening)
            #expect(try await devices.delete(id: device.id))
            #expect(try await !devices.delete(id: device.id))
            // Committed after the deletions, so heard after whatever they announced.
            try await client.notify(AlertRepository.changesChannel, payload: "end")
            var heard: [String] = []
            while case .notification(let note) = await events.next(), note.payload != "end" { heard.append(note.payload) }
            #expect(Set(heard) == ["\(first.id)", "\(second.id)"], "\(heard)")
        }
    }

    @Test func alertsRoundTripEveryShapeAndStayWithinTheirDevice() async throws {
        try await migrated { client in
            let (device, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let (stranger, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: "s", timeZone: "Australia/Perth")
            let alerts = AlertRepository(client: client)
            let near = AlertDefinition(
                kind: .cheapestChanged, fuel: .DL, target: .near(Coordinate(latitude: -31.95, longitude: 115.86), radiusKm: 25),
                change: PriceTenths(tenths: 10), delivery: .daily(at: TimeOfDay("07:30")!),
                quietHours: QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!))
            let first = try #require(try await alerts.create(deviceID: device.id, Self.watch))
            let second = try #require(try await alerts.create(deviceID: device.id, near))
            #expect(first.definition == Self.watch)
            #expect(second.definition == near)
            #expect(try await alerts.list(deviceID: device.id) == [first, second])
            #expect(try await alerts.get(deviceID: stranger.id, alertID: first.id) == nil)
            #expect(try await alerts.replace(deviceID: stranger.id, alertID: first.id, near) == nil)
            #expect(try await !alerts.delete(deviceID: stranger.id, alertID: first.id))
            var changed = Self.watch
            changed.threshold = PriceTenths(tenths: 1699)
            #expect(try await alerts.replace(deviceID: device.id, alertID: first.id, changed)?.definition == changed)
            #expect(try await alerts.delete(deviceID: device.id, alertID: first.id))
            #expect(try await alerts.list(deviceID: device.id) == [second])
            #expect(try await alerts.create(deviceID: device.id + 1000, Self.watch) == nil)
        }
    }

    @Test func theSchemaRefusesWhatNoAlertMayBe() async throws {
        try await migrated { client in
            let (device, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let alerts = AlertRepository(client: client)
            let tooWide = AlertDefinition(kind: .cheapestChanged, fuel: .U91, target: .near(Coordinate(latitude: -31.9, longitude: 115.8), radiusKm: 25.1))
            let tooMany = AlertDefinition(kind: .priceDrop, fuel: .U91, target: .stations((1...21).map { StationID($0) }), change: PriceTenths(tenths: 10))
            let tooSmall = AlertDefinition(kind: .priceDrop, fuel: .U91, target: .stations([1]), change: PriceTenths(tenths: 9))
            for definition in [tooWide, tooMany, tooSmall] {
                await #expect { _ = try await alerts.create(deviceID: device.id, definition) } throws: { ($0 as? PostgresError)?.sqlState == SQLState.checkViolation }
            }
            #expect(try await alerts.list(deviceID: device.id).isEmpty)
        }
    }

    @Test func theFiftyFirstAlertIsRefusedEvenWhenTwoArriveTogether() async throws {
        try await migrated { client in
            let (device, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let alerts = AlertRepository(client: client)
            for _ in 1...(AlertDefinition.maxPerDevice - 1) { _ = try await alerts.create(deviceID: device.id, Self.watch) }
            async let one = outcome { try await alerts.create(deviceID: device.id, Self.watch) }
            async let two = outcome { try await alerts.create(deviceID: device.id, Self.watch) }
            let results = await [one, two]
            #expect(results.filter { if case .success(.some) = $0 { true } else { false } }.count == 1)
            #expect(results.contains { if case .failure(AlertStoreError.alertLimitReached(50)) = $0 { true } else { false } })
            #expect(try await alerts.list(deviceID: device.id).count == AlertDefinition.maxPerDevice)
        }
    }

    @Test func aDeletedAlertGivesItsSlotBackOnceAndOnlyToItsDevice() async throws {
        try await migrated { client in
            let devices = DeviceRepository(client: client)
            let (device, _) = try await devices.create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let (other, _) = try await devices.create(platform: .ios, pushToken: "u", timeZone: "Australia/Perth")
            let alerts = AlertRepository(client: client)
            var ids: [Int64] = []
            for _ in 1...AlertDefinition.maxPerDevice { ids.append(try #require(try await alerts.create(deviceID: device.id, Self.watch)).id) }
            await #expect(throws: AlertStoreError.alertLimitReached(limit: 50)) { _ = try await alerts.create(deviceID: device.id, Self.watch) }
            // Another device's id, then the same alert twice: one slot comes back, once.
            #expect(try await alerts.delete(deviceID: other.id, alertID: ids[0]) == false)
            #expect(try await alerts.delete(deviceID: device.id, alertID: ids[0]) == true)
            #expect(try await alerts.delete(deviceID: device.id, alertID: ids[0]) == false)
            #expect(try await alerts.create(deviceID: device.id, Self.watch) != nil)
            await #expect(throws: AlertStoreError.alertLimitReached(limit: 50)) { _ = try await alerts.create(deviceID: device.id, Self.watch) }
            #expect(try await alerts.create(deviceID: 999_999, Self.watch) == nil, "no such device")
        }
    }

    @Test func aDecisionIsWrittenOnceAndAStaleTokensTransactionWritesNothing() async throws {
        try await migrated { client in
            let (device, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let alert = try #require(try await AlertRepository(client: client).create(deviceID: device.id, Self.watch))
            let outbox = OutboxRepository(client: client)
            func decision(_ key: String) -> Decision {
                Decision(key: key, deviceID: device.id, alertID: alert.id, collapseID: "alert-\(alert.id)-5158", payload: #"{"title":"U91 178.9"}"#)
            }
            #expect(try await outbox.decide([decision("k1")], token: FenceToken(generation: 1, revision: 5)) == 1)
            #expect(try await outbox.decide([decision("k1")], token: FenceToken(generation: 1, revision: 5)) == 0, "decided again: nothing new")
            #expect(try await outbox.decide([decision("k1"), decision("k2")], token: FenceToken(generation: 1, revision: 6)) == 1)
            let stale = FenceToken(generation: 1, revision: 5)
            await #expect {
                try await outbox.decide([decision("k3")], states: [AlertStationState(alertID: alert.id, stationID: 5158, armed: false, lastNotifiedTenths: 1789)],
                                        token: stale)
            } throws: { ($0 as? AlertStoreError) == .fenced(stored: FenceToken(generation: 1, revision: 6), offered: stale) }
            #expect(try await outbox.due(limit: 10).map(\.key) == ["k1", "k2"])
            #expect(try await outbox.states(alertID: alert.id).isEmpty, "the stale transaction wrote no state")
            // A new generation (etcd rebuilt, revisions restarted) still outranks every older token.
            #expect(try await outbox.decide([decision("k3")], token: FenceToken(generation: 2, revision: 1)) == 1)
            #expect(try await outbox.fence() == FenceToken(generation: 2, revision: 1))
            let due = try await outbox.due(limit: 10)
            try await outbox.markSent(ids: [due[0].id])
            #expect(try await outbox.due(limit: 10).map(\.key) == ["k2", "k3"])
            #expect(try await outbox.history(deviceID: device.id).map(\.key) == ["k1"])
        }
    }

    @Test func aDeposedLeaderWaitingOnTheFenceFailsOnceTheNewLeaderCommits() async throws {
        try await AlertsLiveDatabase.withFreshDatabase { client, configuration in
            try await Migrator().migrate(client)
            let (device, _) = try await DeviceRepository(client: client).create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let alert = try #require(try await AlertRepository(client: client).create(deviceID: device.id, Self.watch))
            let outbox = OutboxRepository(client: client)
            let old = FenceToken(generation: 3, revision: 10)
            try await outbox.decide([], token: old)
            // The new leader advances the fence inside an open transaction; the old leader's decide waits on the row.
            let leader = try await PostgresConnection.connect(configuration)
            try await leader.execute("BEGIN")
            _ = try await leader.query("UPDATE fence SET generation = 3, revision = 20")
            let deposed = Task {
                try await outbox.decide([Decision(key: "late", deviceID: device.id, alertID: alert.id, collapseID: "c", payload: "{}")], token: old)
            }
            try await Task.sleep(nanoseconds: 200_000_000)
            try await leader.execute("COMMIT")
            leader.close()
            await #expect { _ = try await deposed.value } throws: {
                ($0 as? AlertStoreError) == .fenced(stored: FenceToken(generation: 3, revision: 20), offered: old)
            }
            #expect(try await client.query("SELECT count(*) AS n FROM notifications WHERE decision_key = 'late'").first?["n"] == "0")
        }
    }
}

func outcome<T>(_ body: () async throws -> T) async -> Result<T, Error> {
    do { return .success(try await body()) } catch { return .failure(error) }
}

import AlertStore
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import LivePostgres
import Postgres
import Testing
@testable import App

/// The device and alert routes over a real socket against a real PostgreSQL (PETTY_TEST_DATABASE_URL, a fresh
/// database per test; run by Tests/postgres/run.sh, skipped by `swift test` alone).
enum AlertsLiveSettings {
    static let isConfigured: Bool = LivePostgres.base != nil
    static let skipReason: Comment = "PETTY_TEST_DATABASE_URL is not set: the live alert route tests run from Tests/postgres/run.sh"
}

@Suite(.enabled(if: AlertsLiveSettings.isConfigured, AlertsLiveSettings.skipReason), .serialized)
struct AlertsLiveRoutesTests {
    /// A server on a fresh database, started and ready; dropped after `body`.
    static func withServer(_ body: (Client, PostgresClient) async throws -> Void) async throws {
        try await LivePostgres.withFreshDatabase(prefix: "alerts_api") { database, _ in
            var config = AppTestSupport.config()
            config.database = database
            let app = try buildApplication(config, logger: AppTestSupport.quietLogger(), dataset: AppTestSupport.sampleDataset).app
            let port = try app.startLive()
            let direct = PostgresClient(configuration: database, maxConnections: 2)
            defer {
                app.shutdown()
                direct.shutdown()
            }
            let client = Client(port: port)
            #expect(await eventually(seconds: 20) { (try? await client.send("GET", "/v1/devices/1/alerts").status) == 401 })
            try await body(client, direct)
        }
    }

    struct Client {
        let port: Int

        func send(
            _ method: String, _ path: String, _ body: String? = nil, secret: String? = nil, headers: [String: String] = [:]
        ) async throws -> (status: Int, json: [String: Any], text: String, headers: [AnyHashable: Any]) {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            if let secret { request.setValue("Bearer \(secret)", forHTTPHeaderField: "Authorization") }
            for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
            if let body {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(body.utf8)
            }
            let (data, response) = try await URLSession.shared.data(for: request)
            let json = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:]
            let http = response as? HTTPURLResponse
            return (http?.statusCode ?? 0, json, String(decoding: data, as: UTF8.self), http?.allHeaderFields ?? [:])
        }

        func register() async throws -> (id: Int, secret: String) {
            let created = try await send("POST", "/v1/devices", #"{"platform": "ios", "push_token": "token-abcdef", "time_zone": "Australia/Perth"}"#)
            #expect(created.status == 201, "\(created.text)")
            return (try require(created.json["id"] as? Int), try require(created.json["secret"] as? String))
        }
    }

    static let alert = #"{"kind": "price_below", "fuel": "U91", "station_ids": [3300], "threshold": 179.9, "delivery": "daily", "at": "07:30"}"#

    @Test func anAppWalksTheWholeDeviceAndAlertFlow() async throws {
        try await Self.withServer { client, database in
            let device = try await client.register()
            let stored = try await database.query("SELECT encode(secret_hash, 'hex') AS hash FROM devices WHERE id = $1", [.text(String(device.id))])
            #expect(stored.first?["hash"] != device.secret && stored.first?["hash"]?.count == 64, "only the secret's hash is stored")

            let created = try await client.send("POST", "/v1/devices/\(device.id)/alerts", Self.alert, secret: device.secret)
            #expect(created.status == 201, "\(created.text)")
            let alertID = try require(created.json["id"] as? Int)
            #expect(created.json["threshold"] as? Double == 179.9 && created.json["at"] as? String == "07:30")
            #expect(created.json["created_at"] is String)

            let listed = try await client.send("GET", "/v1/devices/\(device.id)/alerts", secret: device.secret)
            #expect((listed.json["data"] as? [[String: Any]])?.map { $0["id"] as? Int } == [alertID])

            let replaced = try await client.send("PUT", "/v1/devices/\(device.id)/alerts/\(alertID)",
                                                 #"{"kind": "price_drop", "fuel": "DL", "near": "-31.9523,115.8613", "radius_km": 10, "change": 3.5}"#, secret: device.secret)
            #expect(replaced.status == 200 && replaced.json["change"] as? Double == 3.5 && replaced.json["near"] as? String == "-31.9523,115.8613", "\(replaced.text)")
            let read = try await client.send("GET", "/v1/devices/\(device.id)/alerts/\(alertID)", secret: device.secret)
            #expect(read.text == replaced.text)

            #expect(try await client.send("PUT", "/v1/devices/\(device.id)", #"{"time_zone": "Australia/Sydney", "push_token": "new-token"}"#, secret: device.secret).status == 204)
            let zone = try await database.query("SELECT time_zone, push_token FROM devices WHERE id = $1", [.text(String(device.id))])
            #expect(zone.first?["time_zone"] == "Australia/Sydney" && zone.first?["push_token"] == "new-token")

            #expect(try await client.send("DELETE", "/v1/devices/\(device.id)/alerts/\(alertID)", secret: device.secret).status == 204)
            #expect(try await client.send("GET", "/v1/devices/\(device.id)/alerts/\(alertID)", secret: device.secret).status == 404)
            #expect(try await client.send("DELETE", "/v1/devices/\(device.id)/alerts/\(alertID)", secret: device.secret).status == 404)
        }
    }

    @Test func aMissingWrongOrForeignSecretIs401AndNeverSaysWhetherTheIdExists() async throws {
        try await Self.withServer { client, database in
            let mine = try await client.register()
            let theirs = try await client.register()
            let created = try await client.send("POST", "/v1/devices/\(theirs.id)/alerts", Self.alert, secret: theirs.secret)
            let theirAlert = try require(created.json["id"] as? Int)
            let answers = [
                try await client.send("GET", "/v1/devices/\(mine.id)/alerts"),
                try await client.send("GET", "/v1/devices/\(mine.id)/alerts", secret: theirs.secret + "0"),
                try await client.send("GET", "/v1/devices/\(theirs.id)/alerts", secret: mine.secret),
                try await client.send("GET", "/v1/devices/\(theirs.id)/alerts/\(theirAlert)", secret: mine.secret),
                try await client.send("DELETE", "/v1/devices/\(theirs.id)", secret: mine.secret),
                try await client.send("GET", "/v1/devices/987654321/alerts", secret: mine.secret),
            ]
            #expect(answers.allSatisfy { $0.status == 401 && $0.text == answers[0].text }, "\(answers.map(\.status))")
            // Another device's alert through my own id: not mine, so not found, and untouched.
            #expect(try await client.send("DELETE", "/v1/devices/\(mine.id)/alerts/\(theirAlert)", secret: mine.secret).status == 404)
            let count = try await database.query("SELECT count(*) AS n FROM devices")
            #expect(count.first?["n"] == "2")
            #expect(try await client.send("GET", "/v1/devices/\(theirs.id)/alerts/\(theirAlert)", secret: theirs.secret).status == 200)
        }
    }

    @Test func theFiftyFirstAlertIs409AndNothingIsWrittenOnA4xx() async throws {
        try await Self.withServer { client, database in
            let device = try await client.register()
            for _ in 0..<50 {
                #expect(try await client.send("POST", "/v1/devices/\(device.id)/alerts", Self.alert, secret: device.secret).status == 201)
            }
            let refused = try await client.send("POST", "/v1/devices/\(device.id)/alerts", Self.alert, secret: device.secret)
            #expect(refused.status == 409 && refused.text.contains("50 alerts"), "\(refused.text)")
            #expect(try await client.send("POST", "/v1/devices/\(device.id)/alerts", #"{"kind": "price_below"}"#, secret: device.secret).status == 400)
            let count = try await database.query("SELECT count(*) AS n FROM alerts")
            #expect(count.first?["n"] == "50")
        }
    }

    /// An app whose create's answer was lost (a train into a tunnel) sends it again with the same Idempotency-Key:
    /// one alert, answered again as created, however the retries arrive (one after another, racing, or once the
    /// device is full); the same key for another alert is a 422 that writes nothing.
    @Test func aCreateRetriedWithItsIdempotencyKeyMakesOneAlert() async throws {
        try await Self.withServer { client, database in
            let device = try await client.register()
            let path = "/v1/devices/\(device.id)/alerts"
            let key = ["Idempotency-Key": "\"7b1c2f9e-0d4a-4a51-9f4e-1f2a3b4c5d6e\""]
            let first = try await client.send("POST", path, Self.alert, secret: device.secret, headers: key)
            #expect(first.status == 201, "\(first.text)")
            #expect(first.headers["Idempotent-Replayed"] == nil)
            let again = try await client.send("POST", path, Self.alert, secret: device.secret, headers: key)
            #expect(again.status == 201 && again.text == first.text, "\(again.text)")
            #expect(again.headers["Idempotent-Replayed"] as? String == "true")
            #expect(again.headers["Location"] as? String == "\(path)/\(first.json["id"] as? Int ?? -1)")

            let other = #"{"kind": "price_drop", "fuel": "U91", "station_ids": [1], "change": 2}"#
            let reused = try await client.send("POST", path, other, secret: device.secret, headers: key)
            #expect(reused.status == 422 && reused.text.contains("Idempotency-Key"), "\(reused.text)")
            let malformed = try await client.send("POST", path, Self.alert, secret: device.secret, headers: ["Idempotency-Key": "two words"])
            #expect(malformed.status == 400 && malformed.text.contains("Idempotency-Key"), "\(malformed.text)")

            let racing = ["Idempotency-Key": "racing-copies"]
            let answers = try await withThrowingTaskGroup(of: (Int, Int?).self) { group in
                for _ in 0..<6 {
                    group.addTask {
                        let answer = try await client.send("POST", path, Self.alert, secret: device.secret, headers: racing)
                        return (answer.status, answer.json["id"] as? Int)
                    }
                }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(answers.allSatisfy { $0.0 == 201 } && Set(answers.map(\.1)).count == 1, "\(answers)")

            let stored = try await database.query("SELECT count(*) AS n, (SELECT alert_count FROM devices WHERE id = $1) AS claimed FROM alerts",
                                                  [.text(String(device.id))])
            #expect(stored.first?["n"] == "2" && stored.first?["claimed"] == "2", "one alert per key, each counted once")

            for _ in 0..<48 { #expect(try await client.send("POST", path, Self.alert, secret: device.secret).status == 201) }
            let full = try await client.send("POST", path, Self.alert, secret: device.secret, headers: key)
            #expect(full.status == 201 && full.headers["Idempotent-Replayed"] as? String == "true", "a full device still answers a retry: \(full.text)")
            #expect(try await client.send("POST", path, Self.alert, secret: device.secret, headers: ["Idempotency-Key": "new"]).status == 409)

            let neighbour = try await client.register()
            let theirs = try await client.send("POST", "/v1/devices/\(neighbour.id)/alerts", Self.alert, secret: neighbour.secret, headers: key)
            #expect(theirs.status == 201 && theirs.headers["Idempotent-Replayed"] == nil, "a key is the device's own")
        }
    }

    /// The inbox is in the order pushes went out: a notification decided first but held (quiet hours, the hourly
    /// limit) and sent later comes after the app's cursor, not lost behind it.
    @Test func theInboxFollowsTheOrderNotificationsWereSent() async throws {
        try await Self.withServer { client, database in
            let device = try await client.register()
            let alert = try require(try await client.send("POST", "/v1/devices/\(device.id)/alerts", Self.alert, secret: device.secret).json["id"] as? Int)
            let outbox = OutboxRepository(client: database)
            try await outbox.decide([
                Decision(key: "held", deviceID: Int64(device.id), alertID: Int64(alert), collapseID: "c1", payload: #"{"title": "held"}"#),
                Decision(key: "later", deviceID: Int64(device.id), alertID: Int64(alert), collapseID: "c2", payload: #"{"title": "later"}"#),
            ], token: FenceToken(generation: 1, revision: 1))
            let decided = try await outbox.due(limit: 10)
            #expect(decided.map(\.key) == ["held", "later"])
            func inbox(after: Int? = nil) async throws -> [[String: Any]] {
                let query = after.map { "?after=\($0)" } ?? ""
                return try require(try await client.send("GET", "/v1/devices/\(device.id)/notifications\(query)", secret: device.secret).json["data"] as? [[String: Any]])
            }
            try await outbox.markSent(ids: [decided[1].id])
            let shown = try await inbox()
            #expect(shown.map { $0["title"] as? String } == ["later"])
            let seen = try require(shown.first?["id"] as? Int)
            try await outbox.markSent(ids: [decided[0].id])
            #expect(try await inbox(after: seen).map { $0["title"] as? String } == ["held"], "sent after what the app saw, though decided before")
            #expect(try await inbox().map { $0["title"] as? String } == ["held", "later"], "the most recently sent first")
            #expect(try await inbox(after: 999_999).count == 2, "an id that is none of its sent notifications: the last 100")
        }
    }

    @Test func deletingTheDeviceRemovesItsAlertsAndNotifications() async throws {
        try await Self.withServer { client, database in
            let device = try await client.register()
            let other = try await client.register()
            let alert = try require(try await client.send("POST", "/v1/devices/\(device.id)/alerts", Self.alert, secret: device.secret).json["id"] as? Int)
            let outbox = OutboxRepository(client: database)
            try await outbox.decide([
                Decision(key: "k1", deviceID: Int64(device.id), alertID: Int64(alert), collapseID: "c1",
                         payload: AlertPayload(AlertDecision(key: "k1", alertID: Int64(alert), deviceID: Int64(device.id), station: 3300, fuel: .U91,
                                                             price: PriceTenths(tenths: 1_799), title: "U91 at 179.9", message: "At or below your 179.9")).json),
                Decision(key: "k2", deviceID: Int64(device.id), alertID: Int64(alert), collapseID: "c2", payload: #"{"title": "second"}"#),
                Decision(key: "k3", deviceID: Int64(device.id), alertID: Int64(alert), collapseID: "c3", payload: #"{"title": "unsent"}"#),
            ], token: FenceToken(generation: 1, revision: 1))
            let due = try await outbox.due(limit: 10)
            try await outbox.markSent(ids: due.prefix(2).map(\.id))

            let inbox = try await client.send("GET", "/v1/devices/\(device.id)/notifications", secret: device.secret)
            let entries = try require(inbox.json["data"] as? [[String: Any]])
            #expect(entries.map { $0["title"] as? String } == ["second", "U91 at 179.9"], "newest first, sent only")
            #expect(entries.last?["message"] as? String == "At or below your 179.9" && entries.last?["alert_id"] as? Int == alert)
            // The data its push carried, built from the payload as the sender builds it.
            let data = try require(entries.last?["data"] as? [String: Any])
            #expect(data["alert_id"] as? Int == alert && data["station_id"] as? Int == 3300 && data["fuel"] as? String == "U91")
            #expect(data["price"] as? Double == 179.9 && (data["url"] as? String)?.hasSuffix("/stations/3300") == true, "\(data)")
            #expect(entries.last?["sent_at"] is String)
            let newest = try require(entries.first?["id"] as? Int)
            let after = try await client.send("GET", "/v1/devices/\(device.id)/notifications?after=\(newest)", secret: device.secret)
            #expect((after.json["data"] as? [Any])?.isEmpty == true)
            #expect((try await client.send("GET", "/v1/devices/\(other.id)/notifications", secret: other.secret).json["data"] as? [Any])?.isEmpty == true)

            #expect(try await client.send("DELETE", "/v1/devices/\(device.id)", secret: device.secret).status == 204)
            for table in ["alerts", "notifications"] {
                let left = try await database.query("SELECT count(*) AS n FROM \(table) WHERE device_id = $1", [.text(String(device.id))])
                #expect(left.first?["n"] == "0", "\(table)")
            }
            #expect(try await client.send("GET", "/v1/devices/\(device.id)/alerts", secret: device.secret).status == 401)
            #expect(try await client.send("GET", "/v1/devices/\(other.id)/alerts", secret: other.secret).status == 200)
        }
    }

    @Test func healthShowsTheDatabaseConnected() async throws {
        try await Self.withServer { client, _ in
            let health = try await client.send("GET", "/health")
            let alerts = try require(health.json["alerts"] as? [String: Any])
            #expect(alerts["status"] as? String == "ok" && alerts["database"] as? String == "connected", "\(alerts)")
            let metrics = try await client.send("GET", "/metrics")
            #expect(metrics.text.contains("petty_alerts_up 1") && metrics.text.contains("petty_alerts_decisions_total"))
        }
    }
}

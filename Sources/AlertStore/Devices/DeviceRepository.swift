import Crypto
import Postgres

/// Devices in PostgreSQL: created with a secret shown once, authenticated by that secret's hash, rotated, deleted
/// (with their alerts, alert states and notifications, by the schema's cascades).
public struct DeviceRepository: Sendable {
    let client: PostgresClient

    public init(client: PostgresClient) { self.client = client }

    /// The new device and its secret (the only time the secret exists outside the phone).
    public func create(platform: Device.Platform, pushToken: String, timeZone: String) async throws -> (Device, DeviceSecret) {
        let secret = DeviceSecret.generate()
        let rows = try await client.query(
            "INSERT INTO devices (platform, push_token, time_zone, secret_hash) VALUES ($1, $2, $3, $4) RETURNING id",
            [.text(platform.rawValue), .text(pushToken), .text(timeZone), PostgresValue(bytes: secret.hash)])
        let id = try Int64(rows.first?.int("id") ?? 0)
        return (Device(id: id, platform: platform, pushToken: pushToken, timeZone: timeZone), secret)
    }

    /// The device when `secret` is its secret; nil for a wrong secret and for an unknown id alike, after the same
    /// hash-and-compare, so the answer never tells whether the id exists.
    public func authenticate(id: Int64, secret: String) async throws -> Device? {
        let rows = try await client.query(
            "SELECT id, platform, push_token, time_zone, token_dead, encode(secret_hash, 'hex') AS secret_hash FROM devices WHERE id = $1",
            [.text(String(id))])
        let stored = rows.first.flatMap { $0["secret_hash"] }.flatMap(Hex.decode) ?? Self.absentHash
        let matches = DeviceSecret(text: secret).matches(storedHash: stored)
        guard matches, let row = rows.first else { return nil }
        return try Self.device(row)
    }

    /// Replaces the push token and/or the time zone; a new token revives a device whose token was dead.
    @discardableResult
    public func update(id: Int64, pushToken: String?, timeZone: String?) async throws -> Device? {
        try await client.withTransaction { connection in
        let rows = try await connection.query(
            """
            UPDATE devices SET push_token = coalesce($2, push_token), time_zone = coalesce($3, time_zone),
                token_dead = CASE WHEN $2::text IS NULL THEN token_dead ELSE false END, updated_at = now()
            WHERE id = $1 RETURNING id, platform, push_token, time_zone, token_dead
            """,
            [.text(String(id)), PostgresValue(pushToken), PostgresValue(timeZone)])
        // The evaluator's index keeps each alert's zone: it reloads the device's alerts when told.
        if timeZone != nil, !rows.rows.isEmpty {
            _ = try await connection.query("SELECT pg_notify($1, $2)", [.text(AlertRepository.changesChannel), .text(AlertRepository.deviceChange(id))])
        }
        return try rows.first.map(Self.device)
        }
    }

    /// Stops pushes to a device whose token the relay reported dead, until `update` brings a new one.
    public func markTokenDead(id: Int64, token: String) async throws {
        _ = try await client.query("UPDATE devices SET token_dead = true, updated_at = now() WHERE id = $1 AND push_token = $2",
                                   [.text(String(id)), .text(token)])
    }

    /// Whether a device was deleted; its alerts, their states and its notifications go with it, and each alert is
    /// announced as an alert change (the evaluator, finding it gone, drops it from its index), in one statement.
    @discardableResult
    public func delete(id: Int64) async throws -> Bool {
        let rows = try await client.query("""
            WITH doomed AS (
                SELECT id FROM alerts WHERE device_id = $1
            ), deleted AS (
                DELETE FROM devices WHERE id = $1 RETURNING id
            ), announced AS (
                SELECT pg_notify($2, doomed.id::text) FROM doomed WHERE EXISTS (SELECT 1 FROM deleted)
            )
            SELECT (SELECT count(*) FROM deleted) AS deleted, (SELECT count(*) FROM announced) AS announced
            """, [.text(String(id)), .text(AlertRepository.changesChannel)])
        return try AlertRepository.only(rows).int("deleted") == 1
    }

    /// Compared against when the id is unknown, so both paths do the same work.
    static let absentHash = [UInt8](repeating: 0, count: 32)

    static func device(_ row: PostgresRow) throws -> Device {
        guard let platform = Device.Platform(rawValue: try row.string("platform")) else {
            throw AlertStoreError.unreadableRow("device platform \(row["platform"] ?? "NULL")")
        }
        return Device(id: Int64(try row.int("id")), platform: platform, pushToken: try row.string("push_token"),
                      timeZone: try row.string("time_zone"), tokenDead: try row.bool("token_dead"))
    }
}

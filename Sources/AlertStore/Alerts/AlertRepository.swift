import Fuel
import Postgres

/// A device's alerts: at most `AlertDefinition.maxPerDevice`, every query scoped by the device's id so one device
/// never reads or changes another's. Changes are announced on `changesChannel` for the evaluator's index.
public struct AlertRepository: Sendable {
    public static let changesChannel = "petty_alerts_changed"

    /// A notification's payload on `changesChannel`: an alert's id, or "device:<id>" when a device's zone changed.
    public enum Change: Sendable, Equatable {
        case alert(Int64)
        case device(Int64)

        public init?(payload: String) {
            if payload.hasPrefix("device:") {
                guard let id = Int64(payload.dropFirst(7)) else { return nil }
                self = .device(id)
            } else {
                guard let id = Int64(payload) else { return nil }
                self = .alert(id)
            }
        }
    }

    static func deviceChange(_ id: Int64) -> String { "device:\(id)" }

    let client: PostgresClient

    public init(client: PostgresClient) { self.client = client }

    /// The stored alert; nil when the device does not exist. Over the limit throws `.alertLimitReached`. One
    /// statement, so one round trip: claim one of the device's slots (`alert_count`, see migration 3), insert, and
    /// announce; the statement is its own transaction, so all three happen or none.
    public func create(deviceID: Int64, _ definition: AlertDefinition) async throws -> StoredAlert? {
        try await insert(deviceID: deviceID, definition, idempotencyKey: nil)
    }

    /// As `create`, for a request the app may send again with the same `idempotencyKey` (its answer was lost):
    /// the first makes the alert, and a retry (or a racing copy) answers that alert, `replayed`, instead of making
    /// a second, even when the device has since reached its limit. The same key with another definition throws
    /// `.idempotencyKeyReused`: nothing is written.
    public func create(deviceID: Int64, _ definition: AlertDefinition, idempotencyKey: String) async throws -> (alert: StoredAlert, replayed: Bool)? {
        do {
            if let created = try await insert(deviceID: deviceID, definition, idempotencyKey: idempotencyKey) { return (created, false) }
            return nil
        } catch let error as PostgresError where error.sqlState == SQLState.uniqueViolation {
            guard let earlier = try await made(deviceID: deviceID, idempotencyKey: idempotencyKey) else { throw error }
            return try Self.replay(earlier, of: definition)
        } catch AlertStoreError.alertLimitReached(let limit) {
            guard let earlier = try await made(deviceID: deviceID, idempotencyKey: idempotencyKey) else { throw AlertStoreError.alertLimitReached(limit: limit) }
            return try Self.replay(earlier, of: definition)
        }
    }

    private func insert(deviceID: Int64, _ definition: AlertDefinition, idempotencyKey: String?) async throws -> StoredAlert? {
        let rows = try await client.query("""
            WITH claimed AS (
                UPDATE devices SET alert_count = alert_count + 1 WHERE id = $1 AND alert_count < $2 RETURNING id
            ), inserted AS (
                INSERT INTO alerts (device_id, idempotency_key, \(AlertColumns.names)) SELECT id, $4::text, \(AlertColumns.typedParameters(from: 5)) FROM claimed
                RETURNING \(AlertColumns.selectList)
            ), announced AS (
                SELECT pg_notify($3, id::text) FROM inserted
            )
            SELECT inserted.*, EXISTS (SELECT 1 FROM devices WHERE id = $1) AS device_exists, (SELECT count(*) FROM announced) AS announced
            FROM (SELECT 1) AS one LEFT JOIN inserted ON true
            """, [.text(String(deviceID)), PostgresValue(AlertDefinition.maxPerDevice), .text(Self.changesChannel), PostgresValue(idempotencyKey)]
                + AlertColumns.values(definition))
        let row = try Self.only(rows)
        guard row["id"] == nil else { return try AlertColumns.alert(row) }
        guard try row.bool("device_exists") else { return nil }
        throw AlertStoreError.alertLimitReached(limit: AlertDefinition.maxPerDevice)
    }

    /// The alert an earlier request with `idempotencyKey` made, if it still exists.
    private func made(deviceID: Int64, idempotencyKey: String) async throws -> StoredAlert? {
        try await client.query("SELECT \(AlertColumns.selectList) FROM alerts WHERE device_id = $1 AND idempotency_key = $2",
                               [.text(String(deviceID)), .text(idempotencyKey)]).rows.first.map(AlertColumns.alert)
    }

    private static func replay(_ earlier: StoredAlert, of definition: AlertDefinition) throws -> (alert: StoredAlert, replayed: Bool) {
        guard earlier.definition == definition else { throw AlertStoreError.idempotencyKeyReused(alertID: earlier.id) }
        return (earlier, true)
    }

    public func list(deviceID: Int64) async throws -> [StoredAlert] {
        try await client.query("SELECT \(AlertColumns.selectList) FROM alerts WHERE device_id = $1 ORDER BY id", [.text(String(deviceID))])
            .rows.map(AlertColumns.alert)
    }

    public func get(deviceID: Int64, alertID: Int64) async throws -> StoredAlert? {
        try await client.query("SELECT \(AlertColumns.selectList) FROM alerts WHERE device_id = $1 AND id = $2",
                               [.text(String(deviceID)), .text(String(alertID))]).rows.first.map(AlertColumns.alert)
    }

    /// Replaces what the alert asks; its per-station state starts again, since the old figures no longer apply.
    public func replace(deviceID: Int64, alertID: Int64, _ definition: AlertDefinition) async throws -> StoredAlert? {
        try await client.withTransaction { connection in
            let assignments = AlertColumns.names.split(separator: ",").enumerated()
                .map { "\($0.element.trimmingSpaces) = $\($0.offset + 3)" }.joined(separator: ", ")
            let rows = try await connection.query(
                "UPDATE alerts SET \(assignments), updated_at = now() WHERE device_id = $1 AND id = $2 RETURNING \(AlertColumns.selectList)",
                [.text(String(deviceID)), .text(String(alertID))] + AlertColumns.values(definition))
            guard let row = rows.first else { return nil }
            _ = try await connection.query("DELETE FROM alert_states WHERE alert_id = $1", [.text(String(alertID))])
            try await Self.announce(connection, alertID)
            return try AlertColumns.alert(row)
        }
    }

    /// Deletes the alert, gives its device's slot back and announces it, in one statement.
    @discardableResult
    public func delete(deviceID: Int64, alertID: Int64) async throws -> Bool {
        let rows = try await client.query("""
            WITH deleted AS (
                DELETE FROM alerts WHERE device_id = $1 AND id = $2 RETURNING id, device_id
            ), released AS (
                UPDATE devices SET alert_count = alert_count - 1 WHERE id IN (SELECT device_id FROM deleted) RETURNING id
            ), announced AS (
                SELECT pg_notify($3, id::text) FROM deleted
            )
            SELECT (SELECT count(*) FROM deleted) AS deleted, (SELECT count(*) FROM announced) AS announced
            """, [.text(String(deviceID)), .text(String(alertID)), .text(Self.changesChannel)])
        return try Self.only(rows).int("deleted") == 1
    }

    /// Every alert with an id above `afterID`, `limit` at a time: the evaluator's index loads in pages.
    public func page(afterID: Int64, limit: Int) async throws -> [StoredAlert] {
        try await client.query("SELECT \(AlertColumns.selectList) FROM alerts WHERE id > $1 ORDER BY id LIMIT $2",
                               [.text(String(afterID)), .text(String(limit))]).rows.map(AlertColumns.alert)
    }

    /// NOTIFY is transactional: listeners hear of the change only if it commits.
    static func announce(_ connection: PostgresConnection, _ alertID: Int64) async throws {
        _ = try await connection.query("SELECT pg_notify($1, $2)", [.text(changesChannel), .text(String(alertID))])
    }

    static func only(_ rows: PostgresRows) throws -> PostgresRow {
        guard let row = rows.first else { throw AlertStoreError.unreadableRow("no row returned") }
        return row
    }
}

private extension Substring {
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text = text.dropFirst() }
        while text.last == " " { text = text.dropLast() }
        return text
    }
}

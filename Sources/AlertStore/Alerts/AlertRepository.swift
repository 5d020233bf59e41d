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

    /// The stored alert; nil when the device does not exist. Over the limit throws `.alertLimitReached`.
    public func create(deviceID: Int64, _ definition: AlertDefinition) async throws -> StoredAlert? {
        try await client.withTransaction { connection in
            // Locking the device row makes count-then-insert atomic: two creates at 49 cannot both pass.
            let device = try await connection.query("SELECT id FROM devices WHERE id = $1 FOR UPDATE", [.text(String(deviceID))])
            guard !device.rows.isEmpty else { return nil }
            let count = try await connection.query("SELECT count(*) AS n FROM alerts WHERE device_id = $1", [.text(String(deviceID))])
            guard try (count.first?.int("n") ?? 0) < AlertDefinition.maxPerDevice else {
                throw AlertStoreError.alertLimitReached(limit: AlertDefinition.maxPerDevice)
            }
            let placeholders = (2...13).map { "$\($0)" }.joined(separator: ", ")
            let rows = try await connection.query(
                "INSERT INTO alerts (device_id, \(AlertColumns.names)) VALUES ($1, \(placeholders)) RETURNING \(AlertColumns.selectList)",
                [.text(String(deviceID))] + AlertColumns.values(definition))
            let stored = try AlertColumns.alert(try Self.only(rows))
            try await Self.announce(connection, stored.id)
            return stored
        }
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

    @discardableResult
    public func delete(deviceID: Int64, alertID: Int64) async throws -> Bool {
        try await client.withTransaction { connection in
            let deleted = try await connection.query("DELETE FROM alerts WHERE device_id = $1 AND id = $2",
                                                     [.text(String(deviceID)), .text(String(alertID))]).affectedRows == 1
            if deleted { try await Self.announce(connection, alertID) }
            return deleted
        }
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

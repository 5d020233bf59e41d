import Foundation
import Postgres

/// Decisions written once, fenced by the fleet's token; delivery reads what is unsent and marks what was sent.
public struct OutboxRepository: Sendable {
    let client: PostgresClient

    public init(client: PostgresClient) { self.client = client }

    /// Writes the decisions not already written and the alert states they change, in one transaction that first
    /// advances the fence to `token`. A token older than the stored one throws `.fenced` and writes nothing.
    /// Returns how many decisions were new.
    @discardableResult
    public func decide(_ decisions: [Decision], states: [AlertStationState] = [], token: FenceToken, progress: EvaluationProgress? = nil) async throws -> Int {
        try await client.withTransaction { connection in
            // The UPDATE locks the one fence row: a deposed leader's transaction waits for the new leader's to
            // commit, then re-reads the row and finds its token too old.
            let advanced = try await connection.query(
                "UPDATE fence SET generation = $1, revision = $2, updated_at = now() WHERE (generation, revision) <= ($1::bigint, $2::bigint)",
                [.text(String(token.generation)), .text(String(token.revision))])
            guard advanced.affectedRows == 1 else {
                let stored = try await connection.query("SELECT generation, revision FROM fence")
                let row = try AlertRepository.only(stored)
                throw AlertStoreError.fenced(
                    stored: FenceToken(generation: Int64(try row.int("generation")), revision: Int64(try row.int("revision"))), offered: token)
            }
            var inserted = 0
            for decision in decisions {
                let rows = try await connection.query(
                    """
                    INSERT INTO notifications (device_id, alert_id, decision_key, collapse_id, payload, fence_generation, fence_revision, deliver_after)
                    SELECT $1, $2, $3, $4, $5::jsonb, $6, $7, coalesce(to_timestamp($8::double precision), now())
                    WHERE EXISTS (SELECT 1 FROM alerts WHERE id = $2 AND device_id = $1)
                    ON CONFLICT (decision_key) DO NOTHING
                    """,
                    [.text(String(decision.deviceID)), .text(String(decision.alertID)), .text(decision.key), .text(decision.collapseID),
                     .text(decision.payload), .text(String(token.generation)), .text(String(token.revision)),
                     PostgresValue(decision.deliverAfter?.timeIntervalSince1970)])
                inserted += rows.affectedRows ?? 0
            }
            for state in states {
                _ = try await connection.query(
                    """
                    INSERT INTO alert_states (alert_id, station_id, armed, last_notified_tenths, reference_station)
                    SELECT $1, $2, $3, $4, $5 WHERE EXISTS (SELECT 1 FROM alerts WHERE id = $1)
                    ON CONFLICT (alert_id, station_id) DO UPDATE SET armed = excluded.armed,
                        last_notified_tenths = excluded.last_notified_tenths, reference_station = excluded.reference_station, updated_at = now()
                    """,
                    [.text(String(state.alertID)), .text(String(state.stationID)), PostgresValue(state.armed), PostgresValue(state.lastNotifiedTenths),
                     PostgresValue(state.referenceStation)])
            }
            if let progress { try await Self.record(progress, connection) }
            return inserted
        }
    }

    /// The stored fence.
    public func fence() async throws -> FenceToken {
        let row = try AlertRepository.only(try await client.query("SELECT generation, revision FROM fence"))
        return FenceToken(generation: Int64(try row.int("generation")), revision: Int64(try row.int("revision")))
    }

    /// Unsent notifications due by now, oldest first.
    public func due(limit: Int) async throws -> [OutboxEntry] {
        try await client.query(
            "SELECT \(Self.columns) FROM notifications WHERE sent_at IS NULL AND deliver_after <= now() ORDER BY id LIMIT $1",
            [.text(String(limit))]).rows.map(Self.entry)
    }

    /// Marks one push's rows sent.
    public func markSent(ids: [Int64]) async throws {
        try await markSent(pushes: [ids])
    }

    /// Marks each push's rows sent, in one statement: a push's rows share one `sent_at` and the next push's is a
    /// microsecond later, so `recentSends` counts a folded push once and every push of a batch apart.
    public func markSent(pushes: [[Int64]]) async throws {
        let ids = pushes.flatMap { $0.map { Int($0) } }
        guard !ids.isEmpty else { return }
        let ordinals = pushes.enumerated().flatMap { push in Array(repeating: push.offset, count: push.element.count) }
        _ = try await client.query("""
            UPDATE notifications n SET sent_at = now() + sent.push * interval '1 microsecond', attempts = n.attempts + 1
            FROM unnest($1::bigint[], $2::integer[]) AS sent (id, push)
            WHERE n.id = sent.id AND n.sent_at IS NULL
            """, [PostgresValue(integers: ids), PostgresValue(integers: ordinals)])
    }

    /// A device's notifications sent after the one with id `afterID` (all of them when it is not one of its sent
    /// ones, 0 say), the most recently sent first, at most 100: the in-app inbox. In the order they were sent, not
    /// decided: a row deferred to quiet hours' end or held by the hourly limit is sent after rows decided later, and
    /// an app that keeps the first id it was shown must still be given it.
    public func history(deviceID: Int64, afterID: Int64 = 0, limit: Int = 100) async throws -> [OutboxEntry] {
        try await client.query(
            """
            WITH seen AS (SELECT sent_at, id FROM notifications WHERE id = $2 AND device_id = $1 AND sent_at IS NOT NULL)
            SELECT \(Self.columns) FROM notifications n
            WHERE n.device_id = $1 AND n.sent_at IS NOT NULL AND NOT EXISTS (SELECT 1 FROM seen WHERE (n.sent_at, n.id) <= (seen.sent_at, seen.id))
            ORDER BY n.sent_at DESC, n.id DESC LIMIT $3
            """,
            [.text(String(deviceID)), .text(String(afterID)), .text(String(min(limit, 100)))]).rows.map(Self.entry)
    }

    public func states(alertID: Int64) async throws -> [AlertStationState] {
        try await client.query("SELECT alert_id, station_id, armed, last_notified_tenths FROM alert_states WHERE alert_id = $1 ORDER BY station_id",
                               [.text(String(alertID))]).rows.map { row in
            AlertStationState(alertID: Int64(try row.int("alert_id")), stationID: try row.int("station_id"), armed: try row.bool("armed"),
                              lastNotifiedTenths: try row.optionalInt("last_notified_tenths"))
        }
    }

    static let columns = "id, device_id, alert_id, decision_key, collapse_id, payload::text AS payload, attempts, sent_at IS NOT NULL AS sent, extract(epoch FROM sent_at)::float8 AS sent_epoch"

    static func entry(_ row: PostgresRow) throws -> OutboxEntry {
        OutboxEntry(id: Int64(try row.int("id")), deviceID: Int64(try row.int("device_id")), alertID: try row.optionalInt("alert_id").map(Int64.init),
                    key: try row.string("decision_key"), collapseID: try row.string("collapse_id"), payload: try row.string("payload"),
                    attempts: try row.int("attempts"), sent: try row.bool("sent"),
                    sentAt: row["sent_epoch"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
    }
}

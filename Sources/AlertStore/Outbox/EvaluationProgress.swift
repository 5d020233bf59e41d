import Foundation
import Postgres

/// The last snapshot the evaluator decided on: the next evaluation reads the prices first seen after its instant.
public struct EvaluationProgress: Sendable, Equatable {
    public var snapshotVersion: UInt64
    /// The snapshot's `changedAt`; nil for an empty snapshot.
    public var snapshotChangedAt: Date?
    /// The WA trading day whose tomorrow prices were last announced.
    public var tomorrowAnnounced: String?

    public init(snapshotVersion: UInt64, snapshotChangedAt: Date?, tomorrowAnnounced: String?) {
        self.snapshotVersion = snapshotVersion
        self.snapshotChangedAt = snapshotChangedAt
        self.tomorrowAnnounced = tomorrowAnnounced
    }
}

extension OutboxRepository {
    /// The stored progress; nil before any evaluation.
    public func progress() async throws -> EvaluationProgress? {
        guard let row = try await client.query("SELECT snapshot_version, snapshot_changed_at, tomorrow_announced FROM alert_progress").first else { return nil }
        return EvaluationProgress(
            snapshotVersion: UInt64(try row.int("snapshot_version")),
            snapshotChangedAt: try row.optionalDouble("snapshot_changed_at").map { Date(timeIntervalSince1970: $0) },
            tomorrowAnnounced: row["tomorrow_announced"])
    }

    static func record(_ progress: EvaluationProgress, _ connection: PostgresConnection) async throws {
        _ = try await connection.query(
            """
            INSERT INTO alert_progress (snapshot_version, snapshot_changed_at, tomorrow_announced) VALUES ($1, $2, $3)
            ON CONFLICT (singleton) DO UPDATE SET snapshot_version = excluded.snapshot_version,
                snapshot_changed_at = excluded.snapshot_changed_at, tomorrow_announced = excluded.tomorrow_announced, updated_at = now()
            """,
            [.text(String(progress.snapshotVersion)), PostgresValue(progress.snapshotChangedAt?.timeIntervalSince1970),
             PostgresValue(progress.tomorrowAnnounced)])
    }

    /// Every alert's states, `limit` rows at a time after (`afterAlert`, `afterStation`): what a new evaluator loads.
    public func statesPage(afterAlert: Int64, afterStation: Int, limit: Int) async throws -> [AlertStationState] {
        try await client.query(
            """
            SELECT alert_id, station_id, armed, last_notified_tenths, reference_station FROM alert_states
            WHERE (alert_id, station_id) > ($1::bigint, $2::integer) ORDER BY alert_id, station_id LIMIT $3
            """,
            [.text(String(afterAlert)), .text(String(afterStation)), .text(String(limit))]).rows.map { row in
            AlertStationState(alertID: Int64(try row.int("alert_id")), stationID: try row.int("station_id"), armed: try row.bool("armed"),
                              lastNotifiedTenths: try row.optionalInt("last_notified_tenths"), referenceStation: try row.optionalInt("reference_station"))
        }
    }
}

import Foundation
import Postgres

/// A due notification with what the sender needs of its device.
public struct DueNotification: Sendable, Equatable {
    public var entry: OutboxEntry
    public var platform: Device.Platform
    public var pushToken: String
    /// The device's zone as it is now (an app may have moved it since the decision).
    public var timeZone: String
}

/// What is waiting: the rows not yet sent to devices that can still receive them, due now or waiting for a retry
/// (a row deferred to quiet hours' end or a daily time is not late yet).
public struct OutboxBacklog: Sendable, Equatable {
    public var count: Int
    /// Since the oldest of them was due (for a row already tried, since it was decided); nil when none is.
    public var oldestDueSeconds: Double?
}

extension OutboxRepository {
    /// Unsent notifications due by now to devices whose token is alive, oldest first.
    public func dueForDelivery(limit: Int) async throws -> [DueNotification] {
        try await client.query(
            """
            SELECT n.id, n.device_id, n.alert_id, n.decision_key, n.collapse_id, n.payload::text AS payload, n.attempts,
                   n.sent_at IS NOT NULL AS sent, d.platform, d.push_token, d.time_zone
            FROM notifications n JOIN devices d ON d.id = n.device_id
            WHERE n.sent_at IS NULL AND n.deliver_after <= now() AND NOT d.token_dead
            ORDER BY n.id LIMIT $1
            """,
            [.text(String(limit))]).rows.map { row in
            guard let platform = Device.Platform(rawValue: try row.string("platform")) else { throw AlertStoreError.unreadableRow("device platform") }
            return DueNotification(entry: try Self.entry(row), platform: platform, pushToken: try row.string("push_token"),
                                   timeZone: try row.string("time_zone"))
        }
    }

    /// A failed delivery: counted, its reason kept (never the token), and not tried again before `retryAt`.
    public func recordFailure(ids: [Int64], error: String, retryAt: Date) async throws {
        guard !ids.isEmpty else { return }
        _ = try await client.query(
            """
            UPDATE notifications SET attempts = attempts + 1, last_error = $2, last_attempt_at = now(), deliver_after = to_timestamp($3::double precision)
            WHERE id = ANY($1::bigint[]) AND sent_at IS NULL
            """,
            [PostgresValue(integers: ids.map { Int($0) }), .text(error), PostgresValue(retryAt.timeIntervalSince1970)])
    }

    /// Holds rows back without counting an attempt (the device's burst window is full).
    public func hold(ids: [Int64], until: Date) async throws {
        guard !ids.isEmpty else { return }
        _ = try await client.query("UPDATE notifications SET deliver_after = to_timestamp($2::double precision) WHERE id = ANY($1::bigint[]) AND sent_at IS NULL",
                                   [PostgresValue(integers: ids.map { Int($0) }), PostgresValue(until.timeIntervalSince1970)])
    }

    public func backlog() async throws -> OutboxBacklog {
        let row = try AlertRepository.only(try await client.query(
            """
            SELECT count(*) AS n,
                extract(epoch FROM now() - min(CASE WHEN n.attempts > 0 THEN n.decided_at ELSE n.deliver_after END))::double precision AS oldest
            FROM notifications n JOIN devices d ON d.id = n.device_id
            WHERE n.sent_at IS NULL AND (n.deliver_after <= now() OR n.attempts > 0) AND NOT d.token_dead
            """))
        return OutboxBacklog(count: try row.int("n"), oldestDueSeconds: try row.optionalDouble("oldest"))
    }

    /// When each device's immediate pushes of the last `window` went (one instant per push: a folded push marks its
    /// rows at once); daily summaries are not counted against the hourly limit.
    public func recentSends(within window: TimeInterval) async throws -> [Int64: [Date]] {
        var sends: [Int64: [Date]] = [:]
        for row in try await client.query(
            """
            SELECT DISTINCT device_id, extract(epoch FROM sent_at)::double precision AS at FROM notifications
            WHERE sent_at > now() - make_interval(secs => $1::double precision) AND payload->>'summary_group' IS NULL
            """, [PostgresValue(window)]).rows {
            sends[Int64(try row.int("device_id")), default: []].append(Date(timeIntervalSince1970: try row.double("at")))
        }
        return sends
    }
}

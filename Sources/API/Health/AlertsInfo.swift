import Foundation

/// `/health` `alerts`: every field of `AlertsHealth` (null where it does not apply yet).
struct AlertsInfo: Encodable, Equatable {
    var status: String
    var database: String
    var evaluatorRole: String
    var lastEvaluatedVersion: UInt64?
    var lastEvaluatedAt: String?
    var backlog: Int?
    var oldestUnsentSeconds: Double?
    var relay: String
    var alerts: Int?

    init(_ health: AlertsHealth) {
        status = health.status.rawValue
        database = health.database
        evaluatorRole = health.evaluatorRole.rawValue
        lastEvaluatedVersion = health.lastEvaluatedVersion
        lastEvaluatedAt = health.lastEvaluatedAt.map(ISOTimestamp.string)
        backlog = health.backlog
        oldestUnsentSeconds = health.oldestUnsentSeconds
        relay = health.relay
        alerts = health.alerts
    }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(status, forKey: .status)
        try container.encode(database, forKey: .database)
        try container.encode(evaluatorRole, forKey: .evaluatorRole)
        try container.encode(lastEvaluatedVersion, forKey: .lastEvaluatedVersion)
        try container.encode(lastEvaluatedAt, forKey: .lastEvaluatedAt)
        try container.encode(backlog, forKey: .backlog)
        try container.encode(oldestUnsentSeconds, forKey: .oldestUnsentSeconds)
        try container.encode(relay, forKey: .relay)
        try container.encode(alerts, forKey: .alerts)
    }

    enum CodingKeys: String, CodingKey {
        case status, database, evaluatorRole, lastEvaluatedVersion, lastEvaluatedAt, backlog, oldestUnsentSeconds, relay, alerts
    }

    /// What anyone may see: the statuses, not the database's or the relay's error texts.
    func withoutInternals() -> Self {
        var copy = self
        if !["not configured", "connected", "connecting"].contains(database) { copy.database = "unavailable" }
        if !["not configured", "ok"].contains(relay) { copy.relay = "failing" }
        return copy
    }
}

import HTTP

/// `petty_alerts_*`: price alerts as `AlertsHealth` tells them (written only when alerts are configured).
enum AlertsMetrics {
    static func write(_ health: AlertsHealth, to out: inout PrometheusText) {
        out.metric("petty_alerts_up", .gauge, value: health.database == "connected" ? 1 : 0, help: "1 when the alerts database is connected and migrated, else 0.")
        if let alerts = health.alerts {
            out.metric("petty_alerts", .gauge, value: Double(alerts), help: "Alerts stored, as the evaluator last counted them.")
        }
        out.metric("petty_alerts_decisions_total", .counter, value: Double(health.decisions), help: "Notifications decided (outbox rows written) since start.")
        out.metric("petty_alerts_sent_total", .counter, value: Double(health.sent), help: "Notifications the push relay accepted since start.")
        out.metric("petty_alerts_failed_total", .counter, value: Double(health.failed), help: "Push attempts that failed since start.")
        if let backlog = health.backlog {
            out.metric("petty_alerts_backlog", .gauge, value: Double(backlog), help: "Decided notifications not yet sent.")
        }
        if let oldest = health.oldestUnsentSeconds {
            out.metric("petty_alerts_oldest_unsent_seconds", .gauge, value: oldest, help: "Age of the oldest unsent notification.")
        }
        out.family("petty_alerts_evaluation_seconds", .summary, help: "Time spent evaluating snapshots against alerts.")
        out.sample("petty_alerts_evaluation_seconds_sum", health.evaluationSeconds)
        out.sample("petty_alerts_evaluation_seconds_count", Double(health.evaluations))
    }
}

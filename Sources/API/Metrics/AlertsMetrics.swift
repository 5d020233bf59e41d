import HTTP

/// `petty_alerts_*`: price alerts as `AlertsHealth` tells them (written only when alerts are configured).
enum AlertsMetrics {
    static func write(_ health: AlertsHealth, to out: inout PrometheusText) {
        out.family("petty_alerts_up", .gauge, help: "1 when the alerts database is connected and migrated, else 0.")
        out.sample("petty_alerts_up", health.database == "connected" ? 1 : 0)
        if let alerts = health.alerts {
            out.family("petty_alerts", .gauge, help: "Alerts stored, as the evaluator last counted them.")
            out.sample("petty_alerts", Double(alerts))
        }
        out.family("petty_alerts_decisions_total", .counter, help: "Notifications decided (outbox rows written) since start.")
        out.sample("petty_alerts_decisions_total", Double(health.decisions))
        out.family("petty_alerts_sent_total", .counter, help: "Notifications the push relay accepted since start.")
        out.sample("petty_alerts_sent_total", Double(health.sent))
        out.family("petty_alerts_failed_total", .counter, help: "Push attempts that failed since start.")
        out.sample("petty_alerts_failed_total", Double(health.failed))
        if let backlog = health.backlog {
            out.family("petty_alerts_backlog", .gauge, help: "Decided notifications not yet sent.")
            out.sample("petty_alerts_backlog", Double(backlog))
        }
        if let oldest = health.oldestUnsentSeconds {
            out.family("petty_alerts_oldest_unsent_seconds", .gauge, help: "Age of the oldest unsent notification.")
            out.sample("petty_alerts_oldest_unsent_seconds", oldest)
        }
        out.family("petty_alerts_evaluation_seconds", .summary, help: "Time spent evaluating snapshots against alerts.")
        out.sample("petty_alerts_evaluation_seconds_sum", health.evaluationSeconds)
        out.sample("petty_alerts_evaluation_seconds_count", Double(health.evaluations))
    }
}

import Foundation
import Fuel
import HTTP

/// The data side of `/metrics`: the served snapshot, the pollers, persistence and the follower.
struct FuelMetrics {
    let context: PettyContext
    /// Nil in follower mode (no pollers run).
    let polls: (any PollCountSource)?

    func write(to out: inout PrometheusText, now: Date) {
        writeSnapshot(to: &out, now: now)
        writeProviders(to: &out)
        if let persistence = context.persistence?() { writePersistence(persistence, to: &out) }
        if let follower = context.follower?() { writeFollower(follower, to: &out, now: now) }
        if let coordination = context.coordination?() { FleetMetrics.write(coordination, to: &out) }
        if let alerts = context.alerts?() { AlertsMetrics.write(alerts, to: &out) }
    }

    private func writeSnapshot(to out: inout PrometheusText, now: Date) {
        let snapshot = context.store.current.snapshot
        out.metric("petty_snapshot_version", .gauge, value: Double(snapshot.version), help: "Version of the snapshot being served.")
        if let changedAt = snapshot.changedAt {
            out.metric("petty_snapshot_age_seconds", .gauge, value: max(0, now.timeIntervalSince(changedAt)).rounded(), help: "Seconds since the served snapshot last changed.")
        }
        out.metric("petty_snapshot_stations", .gauge, value: Double(snapshot.stationCount), help: "Stations in the served snapshot.")
    }

    private func writeProviders(to out: inout PrometheusText) {
        if let polls {
            let counts = polls.snapshot.sorted { $0.key.rawValue < $1.key.rawValue }
            out.family("petty_provider_polls_total", .counter, help: "Poll steps by provider and outcome (ok, rejected, failed, idle).")
            for (provider, stats) in counts {
                for outcome in ProviderPollCounts.Outcome.allCases {
                    out.sample("petty_provider_polls_total", Double(stats.outcomes[outcome] ?? 0), labels: [("provider", provider.rawValue), ("outcome", outcome.rawValue)])
                }
            }
            out.family("petty_provider_poll_duration_seconds", .summary, help: "Time spent in poll steps, by provider.")
            for (provider, stats) in counts {
                out.sample("petty_provider_poll_duration_seconds_sum", stats.durationSeconds, labels: [("provider", provider.rawValue)])
                out.sample("petty_provider_poll_duration_seconds_count", Double(stats.polls), labels: [("provider", provider.rawValue)])
            }
        }
        guard let health = context.providers?.all else { return }
        out.family("petty_provider_last_success_timestamp_seconds", .gauge, help: "Unix time of each provider's last successful update.")
        for (provider, health) in health.sorted(by: { $0.key < $1.key }) {
            guard let lastSuccess = health.lastSuccess else { continue }
            out.sample("petty_provider_last_success_timestamp_seconds", lastSuccess.timeIntervalSince1970.rounded(), labels: [("provider", provider.rawValue)])
        }
        out.family("petty_provider_failures_total", .counter, help: "Failed or rejected polls by provider since start.")
        for (provider, health) in health.sorted(by: { $0.key < $1.key }) {
            out.sample("petty_provider_failures_total", Double(health.totalFailures), labels: [("provider", provider.rawValue)])
        }
    }

    private func writePersistence(_ health: PersistenceHealth, to out: inout PrometheusText) {
        out.metric("petty_persistence_failures_total", .counter, value: Double(health.totalFailures), help: "Failed saves of the data directory since start.")
        out.metric("petty_persistence_consecutive_failures", .gauge, value: Double(health.consecutiveFailures), help: "Failed saves since the last good one (0 when healthy).")
        if let lastSave = health.lastSave {
            out.metric("petty_persistence_last_save_timestamp_seconds", .gauge, value: lastSave.timeIntervalSince1970.rounded(), help: "Unix time of the last successful save.")
        }
    }

    private func writeFollower(_ follower: FollowerStatus, to out: inout PrometheusText, now: Date) {
        out.metric("petty_follower_failing", .gauge, value: follower.state.failing ? 1 : 0, help: "1 while the last copy from the leader failed or was refused.")
        out.family("petty_follower_datasets_refused_total", .counter, help: "Leader datasets refused since start, by reason.")
        for reason in DatasetRefusal.Reason.allCases {
            out.sample("petty_follower_datasets_refused_total", Double(follower.state.refusals[reason] ?? 0), labels: [("reason", reason.rawValue)])
        }
        if let lastSync = follower.state.lastSync {
            out.metric("petty_follower_lag_seconds", .gauge, value: max(0, now.timeIntervalSince(lastSync)).rounded(), help: "Seconds since the follower last confirmed it holds the leader's dataset.")
        }
    }
}

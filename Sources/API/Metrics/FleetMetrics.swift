import HTTP

/// The fleet's part of `/metrics` (fleet mode only).
enum FleetMetrics {
    static func write(_ info: CoordinationInfo, to out: inout PrometheusText) {
        out.family("petty_fleet_leader", .gauge, help: "1 while this member leads (and may poll), else 0.")
        out.sample("petty_fleet_leader", info.role == "leader" ? 1 : 0)
        out.family("petty_fleet_epoch", .gauge, help: "The current leader's epoch (create_revision of the leader key).")
        out.sample("petty_fleet_epoch", Double(info.epoch))
        out.family("petty_fleet_leader_changes_total", .counter, help: "Leader changes this member has seen since start.")
        out.sample("petty_fleet_leader_changes_total", Double(info.leaderChanges))
        out.family("petty_fleet_lease_renewals_failed_total", .counter, help: "Lease keep-alives that got no answer.")
        out.sample("petty_fleet_lease_renewals_failed_total", Double(info.leaseRenewalsFailed))
        out.family("petty_fleet_lease_seconds_left", .gauge, help: "Seconds the leader may still act without a renewal.")
        out.sample("petty_fleet_lease_seconds_left", info.leaseSecondsLeft)
        out.family("petty_fleet_follower_stuck", .gauge, help: "1 while this member has not served the published dataset for over a lease.")
        out.sample("petty_fleet_follower_stuck", info.degraded == nil ? 0 : 1)
        out.family("petty_fleet_follower_stuck_total", .counter, help: "Times this member has become stuck behind the published dataset.")
        out.sample("petty_fleet_follower_stuck_total", Double(info.stuckEpisodes))
        out.family("petty_fleet_signed", .gauge, help: "1 when published datasets are signed and checked (PETTY_FLEET_SECRET), else 0.")
        out.sample("petty_fleet_signed", info.signing == "hmac-sha256" ? 1 : 0)
        if let skew = info.clockSkewSeconds {
            out.family("petty_fleet_clock_skew_seconds", .gauge, help: "The publishing leader's wall clock minus this member's, measured at the last new pointer.")
            out.sample("petty_fleet_clock_skew_seconds", skew)
        }
    }
}

import HTTP

/// The fleet's part of `/metrics` (fleet mode only).
enum FleetMetrics {
    static func write(_ info: CoordinationInfo, to out: inout PrometheusText) {
        out.metric("petty_fleet_leader", .gauge, value: info.role == "leader" ? 1 : 0, help: "1 while this member leads (and may poll), else 0.")
        out.metric("petty_fleet_epoch", .gauge, value: Double(info.epoch), help: "The current leader's epoch (create_revision of the leader key).")
        out.metric("petty_fleet_leader_changes_total", .counter, value: Double(info.leaderChanges), help: "Leader changes this member has seen since start.")
        out.metric("petty_fleet_lease_renewals_failed_total", .counter, value: Double(info.leaseRenewalsFailed), help: "Lease keep-alives that got no answer.")
        out.metric("petty_fleet_lease_seconds_left", .gauge, value: info.leaseSecondsLeft, help: "Seconds the leader may still act without a renewal.")
        out.metric("petty_fleet_follower_stuck", .gauge, value: info.degraded == nil ? 0 : 1, help: "1 while this member has not served the published dataset for over a lease.")
        out.metric("petty_fleet_follower_stuck_total", .counter, value: Double(info.stuckEpisodes), help: "Times this member has become stuck behind the published dataset.")
        out.metric("petty_fleet_signed", .gauge, value: info.signing == "hmac-sha256" ? 1 : 0, help: "1 when published datasets are signed and checked (PETTY_FLEET_SECRET), else 0.")
        if let skew = info.clockSkewSeconds {
            out.metric("petty_fleet_clock_skew_seconds", .gauge, value: skew, help: "The publishing leader's wall clock minus this member's, measured at the last new pointer.")
        }
    }
}

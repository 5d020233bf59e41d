/// One member's view of the election, as a pure state machine over an injected monotonic clock (seconds).
///
/// The fencing rule: a leader may act (poll providers, publish) only while its lease is provably alive, i.e.
/// before `deadline` = the send time of the last keep-alive etcd answered with a TTL + TTL − margin. etcd
/// restarts the lease's TTL when it receives that keep-alive, which is after it was sent, so the deadline can
/// only be early, never late. A keep-alive answered without a TTL (the lease is gone), a passed deadline or a
/// guarded write that etcd refused ends the leadership at once.
public struct Election: Equatable, Sendable {
    public enum Role: String, Sendable { case follower, leader }

    /// What a call changed, for the runtime to act on (start or stop polling) and to log.
    public enum Change: Equatable, Sendable {
        case elected(epoch: Int64)
        case steppedDown(reason: String)
    }

    public private(set) var role: Role = .follower
    /// Our epoch while leading: the `create_revision` of the leader key our campaign created.
    public private(set) var epoch: Int64 = 0
    public private(set) var lease: Int64?
    public private(set) var ttl: Double = 0
    /// Monotonic send time of the grant or keep-alive etcd last answered with a TTL.
    public private(set) var renewedAt: Double?
    /// The fraction of the TTL given up as safety margin (clock drift, the time a poll takes to be cancelled).
    public let marginFraction: Double

    public init(marginFraction: Double = 0.2) {
        self.marginFraction = marginFraction
    }

    /// Until when the lease is provably alive; nil without a lease.
    public var deadline: Double? { renewedAt.map { $0 + ttl * (1 - marginFraction) } }

    /// Whether the leader may poll or publish at `now`.
    public func mayAct(at now: Double) -> Bool {
        guard role == .leader, let deadline else { return false }
        return now < deadline
    }

    /// Whether etcd may still hold our lease at `now` (after this, a new lease is needed).
    public func mayHoldLease(at now: Double) -> Bool {
        guard lease != nil, let renewedAt else { return false }
        return now < renewedAt + ttl
    }

    /// Seconds the leader may still act, 0 when it may not.
    public func secondsLeft(at now: Double) -> Double {
        guard let deadline, lease != nil else { return 0 }
        return max(0, deadline - now)
    }

    public mutating func granted(lease id: Int64, ttl seconds: Int64, sentAt: Double) {
        lease = id
        ttl = Double(seconds)
        renewedAt = sentAt
    }

    /// A keep-alive sent at `sentAt` came back with `ttl` (0: etcd no longer has the lease).
    public mutating func renewed(ttl seconds: Int64, sentAt: Double) -> Change? {
        guard seconds > 0 else {
            lease = nil
            renewedAt = nil
            return stepDown("the lease expired (keep-alive answered without a TTL)")
        }
        ttl = Double(seconds)
        renewedAt = max(renewedAt ?? sentAt, sentAt)
        return nil
    }

    /// Our campaign transaction created the leader key at revision `epoch`; it counts only while the lease lives.
    public mutating func won(epoch revision: Int64, at now: Double) -> Change? {
        guard role == .follower, lease != nil, let deadline, now < deadline else { return nil }
        role = .leader
        epoch = revision
        return .elected(epoch: revision)
    }

    /// The leader key as read from etcd (nil: absent). A leader that no longer owns it steps down.
    public mutating func observed(leaderEpoch: Int64?) -> Change? {
        guard role == .leader else { return nil }
        guard let leaderEpoch else { return stepDown("the leader key is gone") }
        return leaderEpoch == epoch ? nil : stepDown("another member leads (epoch \(leaderEpoch))")
    }

    /// etcd refused a write guarded by our epoch: someone else leads.
    public mutating func guardedWriteRefused() -> Change? {
        stepDown("a write guarded by epoch \(epoch) was refused")
    }

    /// The clock moved on: past the deadline a leader steps down; past the TTL the lease is dropped.
    public mutating func tick(at now: Double) -> Change? {
        if lease != nil, !mayHoldLease(at: now) {
            lease = nil
            renewedAt = nil
        }
        guard role == .leader, !mayAct(at: now) else { return nil }
        return stepDown("the lease deadline passed without a keep-alive")
    }

    /// The lease is lost for good (revoked, or the session is being rebuilt).
    public mutating func dropLease() -> Change? {
        lease = nil
        renewedAt = nil
        return stepDown("the lease was dropped")
    }

    private mutating func stepDown(_ reason: String) -> Change? {
        guard role == .leader else { return nil }
        role = .follower
        return .steppedDown(reason: reason)
    }
}

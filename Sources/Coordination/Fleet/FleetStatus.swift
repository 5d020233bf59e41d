import Foundation

/// What `/health` and `/metrics` show of the fleet.
public struct FleetStatus: Equatable, Sendable {
    public var role: Election.Role = .follower
    /// The current leader's epoch as last read (ours while leading); 0 before any.
    public var epoch: Int64 = 0
    public var leaderName: String?
    public var leaderURL: String?
    public var leaseSecondsLeft: Double = 0
    /// `ok`, or why etcd cannot be used (unreachable, authentication failed, ...).
    public var etcd: String = "starting"
    public var lastElection: Date?
    public var leaderChanges = 0
    public var renewalsFailed = 0
    public var published: DatasetPointer?
    /// Why the member does not campaign, when it does not.
    public var waiting: String?
    /// The publisher's clock minus this member's, in seconds, measured when a new pointer was first read (so it
    /// errs by up to one read interval towards a slower publisher); nil until a pointer changed while watched.
    public var clockSkew: Double?
    /// The registered members' advertised URLs, as last read.
    public var memberURLs: [String] = []
    /// Other fleets in the etcd that look like a typo of this one, or this member alone beside them.
    public var warnings: [String] = []
    /// The fleet generation (`FleetGeneration`): bumped when etcd's cluster id changes or the fleet's keys vanish
    /// (etcd rebuilt from nothing, its epochs restarted), adopted when the fleet's records name a higher one.
    public var generation: Int64 = 0

    public init() {}
}

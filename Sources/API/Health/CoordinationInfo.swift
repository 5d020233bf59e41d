/// `/health` `coordination`: the fleet as this member sees it. `mode` is `single` without etcd.
package struct CoordinationInfo: Encodable, Sendable {
    package struct Leader: Encodable, Sendable {
        var name: String?
        var url: String?

        package init(name: String?, url: String?) {
            self.name = name
            self.url = url
        }
    }

    package struct Dataset: Encodable, Sendable {
        /// The epoch of the dataset this member holds.
        var heldEpoch: Int64
        var publishedVersion: UInt64?
        var publishedEpoch: Int64?
        var lastApplied: String?
        var lastError: String?

        package init(heldEpoch: Int64, publishedVersion: UInt64?, publishedEpoch: Int64?, lastApplied: String?, lastError: String?) {
            self.heldEpoch = heldEpoch
            self.publishedVersion = publishedVersion
            self.publishedEpoch = publishedEpoch
            self.lastApplied = lastApplied
            self.lastError = lastError
        }
    }

    var mode: String
    var role: String
    var epoch: Int64
    var leader: Leader
    var leaseSecondsLeft: Double
    /// `ok`, or why etcd cannot be used; the member keeps serving what it holds either way.
    var etcd: String
    var lastElection: String?
    /// Why this member does not stand for leader, when it does not.
    var waiting: String?
    var dataset: Dataset
    var leaderChanges: Int
    var leaseRenewalsFailed: Int
    /// Why this member is degraded as a fleet member (it has not served the published dataset for over a lease).
    var degraded: String?
    /// How often this member has become degraded that way since start.
    var stuckEpisodes: Int
    /// The publisher's clock minus this member's, in seconds, measured when a new pointer was read (to within the
    /// fleet's read interval); absent until measured. Shown, never used to order datasets.
    var clockSkewSeconds: Double?
    /// `hmac-sha256` when datasets are signed and checked under `PETTY_FLEET_SECRET`, else the warning `unsigned`.
    var signing: String
    /// Other fleets in the etcd whose name is a likely typo of this one, or this member alone beside them.
    var warnings: [String]?

    package static let unsigned = "off: PETTY_FLEET_SECRET is not set; datasets are published and copied unsigned"

    package init(
        mode: String, role: String, epoch: Int64, leader: Leader, leaseSecondsLeft: Double, etcd: String,
        lastElection: String?, waiting: String?, dataset: Dataset, leaderChanges: Int, leaseRenewalsFailed: Int,
        degraded: String? = nil, stuckEpisodes: Int = 0, clockSkewSeconds: Double? = nil,
        signing: String = CoordinationInfo.unsigned, warnings: [String]? = nil
    ) {
        self.mode = mode
        self.role = role
        self.epoch = epoch
        self.leader = leader
        self.leaseSecondsLeft = leaseSecondsLeft
        self.etcd = etcd
        self.lastElection = lastElection
        self.waiting = waiting
        self.dataset = dataset
        self.leaderChanges = leaderChanges
        self.leaseRenewalsFailed = leaseRenewalsFailed
        self.degraded = degraded
        self.stuckEpisodes = stuckEpisodes
        self.clockSkewSeconds = clockSkewSeconds
        self.signing = signing
        self.warnings = warnings
    }
}

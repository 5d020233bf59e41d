/// `/health` `coordination`: the fleet as this member sees it. `mode` is `single` without etcd.
struct CoordinationInfo: Encodable, Sendable {
    struct Leader: Encodable, Sendable {
        var name: String?
        var url: String?
    }

    struct Dataset: Encodable, Sendable {
        /// The epoch of the dataset this member holds.
        var heldEpoch: Int64
        var publishedVersion: UInt64?
        var publishedEpoch: Int64?
        var lastApplied: String?
        var lastError: String?
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
}

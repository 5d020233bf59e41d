/// Which generation of the fleet a member last took part in, and the etcd cluster it saw it in: persisted with
/// the member's data (`FleetMember.persist`), so it lives as long as the data does, not as long as etcd.
public struct FleetGeneration: Codable, Equatable, Sendable {
    public var number: Int64
    /// etcd's cluster id when `number` was recorded; another id at start means etcd was rebuilt meanwhile.
    public var clusterID: String?

    public init(number: Int64 = 0, clusterID: String? = nil) {
        self.number = number
        self.clusterID = clusterID
    }

    enum CodingKeys: String, CodingKey {
        case number = "generation"
        case clusterID = "cluster_id"
    }

    /// A generation read from the fleet's records is taken only this far above the member's own: etcd is rebuilt
    /// a few times in a fleet's life, while a number written by whoever can write the fleet's keys could pin every
    /// member above any genuine token for good.
    public static let maximumLeap: Int64 = 1_000

    /// The generation after a rebuild: above the member's own and above any the fleet's records show.
    public func bumped(seen: Int64) -> Int64 { max(number, plausible(seen) ?? 0) + 1 }

    /// `seen` when it is a generation the member may adopt (above its own, within `maximumLeap`), else nil.
    public func plausible(_ seen: Int64) -> Int64? {
        seen >= 0 && seen <= number + Self.maximumLeap ? seen : nil
    }
}

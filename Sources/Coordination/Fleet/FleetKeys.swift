/// The fleet's keys in etcd, all under `/<fleet>/` so one range reads the whole fleet.
public struct FleetKeys: Equatable, Sendable {
    public let fleet: String

    public init(fleet: String) { self.fleet = fleet }

    public var root: String { "/\(fleet)/" }
    /// Created by the winning campaign, attached to the leader's lease; its create_revision is the epoch.
    public var leader: String { root + "leader" }
    /// The published dataset pointer (`DatasetPointer`), written only by a transaction guarded by the epoch.
    public var dataset: String { root + "dataset" }
    /// The highest station id ever issued in the fleet.
    public var ids: String { root + "ids" }
    public var membersPrefix: String { root + "members/" }
    public func member(_ name: String) -> String { membersPrefix + name }
}

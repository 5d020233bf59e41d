/// The fleet's fencing token: (generation, revision), compared in that order. The revision is the leader key's
/// create_revision (the epoch), which restarts when etcd is rebuilt from nothing; the generation is persisted with
/// each member's data and bumped then, so a token issued after a rebuild is always above every token before it.
/// Whatever must happen once in the fleet is written together with a check that no higher token was seen.
public struct FleetFenceToken: Comparable, Hashable, Sendable, CustomStringConvertible {
    public var generation: Int64
    public var revision: Int64

    public init(generation: Int64, revision: Int64) {
        self.generation = generation
        self.revision = revision
    }

    public static func < (lhs: FleetFenceToken, rhs: FleetFenceToken) -> Bool {
        (lhs.generation, lhs.revision) < (rhs.generation, rhs.revision)
    }

    public var description: String { "\(generation).\(revision)" }
}

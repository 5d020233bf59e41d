/// The fleet's fencing token: (generation, revision), compared in that order. The generation outlives an etcd
/// rebuild (issue 46), so a token never goes backwards even when etcd's revisions start again.
public struct FenceToken: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var generation: Int64
    public var revision: Int64

    public init(generation: Int64, revision: Int64) {
        self.generation = generation
        self.revision = revision
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.generation, lhs.revision) < (rhs.generation, rhs.revision)
    }

    public var description: String { "\(generation).\(revision)" }
}

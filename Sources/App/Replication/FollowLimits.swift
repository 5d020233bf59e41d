import Foundation

/// How much a follower lets one dataset download cost. The sample dataset is about 1.3 MB and a national one a
/// few MB, so the cap leaves ample room while an endless body stops long before it hurts the process.
public struct FollowLimits: Sendable {
    /// The body is counted as it arrives and the transfer cancelled past this many bytes.
    public var maxBytes = 64 << 20
    /// The whole transfer (connect, headers, body), not just the gap between two reads.
    public var deadline: TimeInterval = 60

    public init(maxBytes: Int = 64 << 20, deadline: TimeInterval = 60) {
        self.maxBytes = maxBytes
        self.deadline = deadline
    }
}

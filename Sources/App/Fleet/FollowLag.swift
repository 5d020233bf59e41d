import Coordination

/// How long a fleet member has not served the published pointer. A follower that keeps refusing the pointer, or
/// cannot reach its publisher, still serves what it holds, so its reads look fine; past `limit` seconds (a lease)
/// it is `stuck`: `/health` says `degraded` with `reason`, and `episodes` counts each time it got stuck.
struct FollowLag: Equatable {
    let limit: Double
    private(set) var behindSince: Double?
    private(set) var episodes = 0
    private(set) var stuck = false

    init(limit: Double) { self.limit = limit }

    /// `serving`: the member leads, nothing is published, or it holds the published version and body.
    mutating func observe(serving: Bool, at now: Double) {
        guard !serving else {
            behindSince = nil
            stuck = false
            return
        }
        let since = behindSince ?? now
        behindSince = since
        if !stuck, now - since > limit {
            stuck = true
            episodes += 1
        }
    }

    func secondsBehind(at now: Double) -> Double { behindSince.map { max(0, now - $0) } ?? 0 }

    /// Whether the member serves `pointer`: the same version, and (when known) the same body.
    static func serves(_ pointer: DatasetPointer, heldVersion: UInt64, heldChecksum: String?) -> Bool {
        pointer.version == heldVersion && (heldChecksum == nil || heldChecksum == pointer.checksum)
    }
}

/// Why a follower refused the leader's dataset: a reason (a `/metrics` label) and the words `/health` shows.
package struct DatasetRefusal: Error, CustomStringConvertible, Equatable, Sendable {
    package enum Reason: String, CaseIterable, Sendable {
        /// The body's checksum is missing or does not match: damaged on the way, or from a leader not upgraded.
        case checksum
        /// The checksum holds but the body does not decode.
        case malformed
        /// A value outside what any real dataset holds (`DatasetValidation`).
        case outOfRange = "out_of_range"
        /// A station text breaking the feeds' text rules (`FeedPolicy`).
        case text
        /// A provider's `asOf` (or the snapshot's change instant) ahead of the follower's clock.
        case future
        /// A snapshot version far beyond the one held.
        case versionJump = "version_jump"
        /// An older snapshot, or a provider's data older than held.
        case backwards
        /// Less than the merge rules would accept: empty, a provider missing, halved, priceless, live replaced by samples.
        case shrink
        /// A provider growing faster than the feeds' growth rule allows, not yet confirmed by enough datasets.
        case growth
    }

    package let reason: Reason
    package let description: String

    package init(_ reason: Reason, _ description: String) {
        self.reason = reason
        self.description = description
    }
}

/// Whether a follower copies a published pointer: its token (generation, epoch) first, then version. A newer token
/// is a new leader that etcd elected (or a new generation after etcd was rebuilt from nothing, where epochs restart
/// small), so its dataset is the fleet's, even at a lower version (its counter restarted, or it led on a version the
/// held one never saw published); a pointer under an older token is a deposed leader, refused however high its
/// version. Under one token only a higher version is news. Never a comparison of two hosts' clocks.
public enum PointerOrder: Equatable, Sendable {
    /// An older token: refused.
    case olderToken
    /// Nothing to download; the pointer's token is held from now on.
    case held
    /// Download and apply; `versionMayGoBack` when the token, not the version, orders it.
    case copy(versionMayGoBack: Bool)

    /// `heldChecksum` is the pointer checksum of the dataset held, when known: the same body under a newer token
    /// (the new leader republishing what it copied) is not downloaded again.
    public static func of(_ pointer: DatasetPointer, held: FleetFenceToken, heldVersion: UInt64, heldChecksum: String?) -> PointerOrder {
        if pointer.token < held { return .olderToken }
        if pointer.version > heldVersion { return .copy(versionMayGoBack: false) }
        if pointer.token == held { return .held }
        if pointer.version == heldVersion, pointer.checksum == heldChecksum { return .held }
        return .copy(versionMayGoBack: true)
    }
}

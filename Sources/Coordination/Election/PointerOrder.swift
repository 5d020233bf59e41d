/// Whether a follower copies a published pointer: epoch first, then version. A newer epoch is a new leader that
/// etcd elected, so its dataset is the fleet's, even at a lower version (its counter restarted, or it led on a
/// version the held one never saw published); a pointer from an older epoch is a deposed leader, refused however
/// high its version. Within one epoch only a higher version is news.
public enum PointerOrder: Equatable, Sendable {
    /// An older epoch: refused.
    case olderEpoch
    /// Nothing to download; the pointer's epoch is held from now on.
    case held
    /// Download and apply; `versionMayGoBack` when the epoch, not the version, orders it.
    case copy(versionMayGoBack: Bool)

    /// `heldChecksum` is the pointer checksum of the dataset held, when known: the same body at a newer epoch
    /// (the new leader republishing what it copied) is not downloaded again.
    public static func of(_ pointer: DatasetPointer, heldEpoch: Int64, heldVersion: UInt64, heldChecksum: String?) -> PointerOrder {
        if pointer.epoch < heldEpoch { return .olderEpoch }
        if pointer.version > heldVersion { return .copy(versionMayGoBack: false) }
        if pointer.epoch == heldEpoch { return .held }
        if pointer.version == heldVersion, pointer.checksum == heldChecksum { return .held }
        return .copy(versionMayGoBack: true)
    }
}

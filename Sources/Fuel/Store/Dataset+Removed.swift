import Foundation

extension Dataset {
    /// A station this server once issued `id` to and no longer holds (delisted by its feed): what a removed favourite
    /// or share link answers (410) instead of "never heard of it" (404).
    public struct RemovedStation: Hashable, Sendable {
        public var id: StationID
        /// When the removal was recorded, while the change log still holds it (`ChangeLog.retention`); nil after.
        public var removedAt: Date?
    }

    /// `id`'s removal, or nil when it is held now or was never issued.
    public func removedStation(_ id: StationID) -> RemovedStation? {
        guard snapshot.slot(of: id) == nil, registry.key(owning: id) != nil else { return nil }
        let at = changes.removals.lazy.filter { $0.station == id && $0.fuel == nil }.map(\.at).max()
        return RemovedStation(id: id, removedAt: at)
    }
}

import Foundation

/// What incremental sync needs beyond the snapshot itself: when each current station last changed, the removals of
/// the last `retention` (tombstones), and the horizon before which the log cannot vouch for completeness.
/// Recorded by diffing each published snapshot against the previous one, so every path that changes what a full
/// fetch shows (merges, removals after `FeedPolicy.absencesBeforeRemoval` feeds, the WA rollover, registry id
/// changes) becomes change events without the merge knowing about sync.
public struct ChangeLog: Hashable, Sendable {
    /// How long removals are kept, and so how long a cursor surely stays valid: the one statement of it. (An older
    /// cursor is refused only once a removal it may not have seen is dropped.)
    public static let retention: TimeInterval = 7 * 86_400

    public struct Removal: Hashable, Sendable {
        public var at: Date
        public var station: StationID
        public var state: AustralianState
        /// nil when the whole station was removed.
        public var fuel: FuelType?
    }

    /// The last position the log can no longer vouch for (a removal dropped after `retention`, or the end of what
    /// a restart lost): a cursor or `since` before it may have missed a removal, so the client must fetch everything
    /// again. nil while nothing was ever dropped or lost.
    public internal(set) var horizon: ChangeCursor?
    /// The snapshot version this log describes; a log beside another snapshot cannot be trusted.
    public internal(set) var version: UInt64
    /// When each current station's details, or its set of prices and tomorrow prices, last changed.
    public internal(set) var stations: [StationID: Date]
    /// Oldest first.
    public internal(set) var removals: [Removal]

    /// A log that knows nothing before `snapshot`: each of its stations is a change at the horizon, just after the
    /// snapshot's last change, so every cursor issued before (by a log now lost) is refused, never trusted.
    public init(restartingAt snapshot: Snapshot) {
        let start = snapshot.changedAt.map { Date(timeIntervalSinceReferenceDate: $0.timeIntervalSinceReferenceDate.nextUp) } ?? .distantPast
        horizon = snapshot.changedAt.map(ChangeCursor.after(instant:))
        version = snapshot.version
        stations = Dictionary(snapshot.entries.map { ($0.id, start) }, uniquingKeysWith: { first, _ in first })
        removals = []
    }

    /// Whether this log was recorded for `snapshot` (its version and its stations).
    public func describes(_ snapshot: Snapshot) -> Bool {
        version == snapshot.version && stations.count == snapshot.entries.count
            && snapshot.entries.allSatisfy { stations[$0.id] != nil }
    }

    /// Whether a client at `cursor` can catch up from this log.
    public func accepts(_ cursor: ChangeCursor) -> Bool { horizon.map { !cursor.precedes($0) } ?? true }

    /// The log after `old` became `new` at `now`: stations added or changed and prices or stations removed are
    /// stamped `now`; removals older than `retention` are dropped and the horizon moves past them.
    public func recording(from old: Snapshot, to new: Snapshot, at now: Date) -> ChangeLog {
        var next = self
        next.version = new.version
        if old.entries != new.entries {
            var present = Set<StationID>()
            present.reserveCapacity(new.entries.count)
            var revived: Set<RemovalKey> = []
            for entry in new.entries {
                present.insert(entry.id)
                guard let before = old[entry.id] else {
                    next.stations[entry.id] = now
                    revived.insert(RemovalKey(station: entry.id, fuel: nil))
                    continue
                }
                if before.station != entry.station || Self.tomorrows(before) != Self.tomorrows(entry) {
                    next.stations[entry.id] = now
                }
                for price in before.prices where entry.price(of: price.fuel) == nil {
                    next.removals.append(Removal(at: now, station: entry.id, state: entry.station.state, fuel: price.fuel))
                }
                for price in entry.prices where before.price(of: price.fuel) == nil {
                    revived.insert(RemovalKey(station: entry.id, fuel: price.fuel))
                }
            }
            for entry in old.entries where !present.contains(entry.id) {
                next.stations[entry.id] = nil
                next.removals.append(Removal(at: now, station: entry.id, state: entry.station.state, fuel: nil))
            }
            // What is back supersedes its tombstone (a client that missed both only needs the current state; one
            // that saw the tombstone gets the new item after it). A station that is back is replaced whole.
            if !revived.isEmpty {
                next.removals.removeAll { revived.contains(RemovalKey(station: $0.station, fuel: $0.fuel)) }
            }
            next.removals.sort { ($0.at, $0.station, $0.fuel?.ordinal ?? -1) < ($1.at, $1.station, $1.fuel?.ordinal ?? -1) }
        }
        next.stampStandingChanges(from: old, to: new, at: now)
        // Removals past retention go; the horizon moves to the newest one dropped, so only a cursor that could have
        // needed it is refused.
        let cutoff = now.addingTimeInterval(-Self.retention)
        let expired = next.removals.prefix { $0.at < cutoff }.count
        if expired > 0 {
            let newest = next.removals[expired - 1]
            let position = ChangeCursor(changedAt: newest.at, station: newest.station, fuel: newest.fuel)
            if next.horizon.map({ $0.precedes(position) }) ?? true { next.horizon = position }
            next.removals.removeFirst(expired)
        }
        return next
    }

    private struct RemovalKey: Hashable {
        var station: StationID
        var fuel: FuelType?
    }

    private static func tomorrows(_ entry: StationEntry) -> [TomorrowPrice?] {
        entry.prices.map(\.tomorrow) + entry.tomorrowOnly.map(\.tomorrow)
    }
}

import Foundation

/// The change feed of one published dataset, in cursor order: every current price at the instant this store first
/// saw it (or its station's, if later: a station item always precedes its prices), every current station at the
/// instant its details last changed, and the removals the log still holds.
/// A client that applies it in order, from the beginning or from any cursor the log accepts, holds what a full
/// fetch shows. Built once per snapshot; pages are a binary search and a slice.
public struct ChangeFeed: Sendable {
    public let events: [ChangeEvent]
    public let log: ChangeLog

    public init(index: FuelIndex, log: ChangeLog) {
        let snapshot = index.snapshot
        var events: [ChangeEvent] = []
        events.reserveCapacity(index.timeline.count + snapshot.entries.count + log.removals.count)
        for change in index.timeline {
            guard let entry = snapshot[change.station] else { continue }
            // Never before its station's item: a client building its store from the feed alone needs the station
            // first. A price seen before the station last changed sits just after that station item (which carries
            // it anyway), so a cursor between the two still gets the price.
            let stationAt = log.stations[change.station] ?? .distantPast
            events.append(ChangeEvent(
                kind: .price(change), changedAt: max(change.changedAt, stationAt), station: change.station, state: entry.station.state))
        }
        for entry in snapshot.entries {
            let changedAt = log.stations[entry.id] ?? .distantPast
            events.append(ChangeEvent(kind: .station, changedAt: changedAt, station: entry.id, state: entry.station.state))
        }
        for removal in log.removals {
            let kind: ChangeEvent.Kind = removal.fuel.map { .priceRemoved($0) } ?? .stationRemoved
            events.append(ChangeEvent(kind: kind, changedAt: removal.at, station: removal.station, state: removal.state))
        }
        events.sort(by: ChangeEvent.ordered)
        self.events = events
        self.log = log
    }

    /// Where a client that has applied the whole feed stands: what list responses hand out as `sync_token`.
    public var end: ChangeCursor {
        events.last.map(ChangeCursor.init(after:)) ?? log.horizon ?? .after(instant: .distantPast)
    }

    /// Events strictly after `cursor` (binary search, no scan).
    public func events(after cursor: ChangeCursor) -> ArraySlice<ChangeEvent> {
        var low = 0
        var high = events.count
        while low < high {
            let middle = (low + high) / 2
            if cursor.precedesOrEquals(events[middle]) { high = middle } else { low = middle + 1 }
        }
        if low < events.count, ChangeCursor(after: events[low]) == cursor { low += 1 }
        return events[low...]
    }
}

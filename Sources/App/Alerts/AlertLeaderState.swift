import AlertStore
import Foundation
import Fuel

/// What the evaluating member holds while it leads: the index, every alert's states, and how far it has decided.
/// Loaded from PostgreSQL when leadership starts; changed only after the database accepted a decision.
struct AlertLeaderState {
    var evaluator: AlertEvaluator
    var states: AlertStates
    var progress: EvaluationProgress?
    /// The snapshot last decided on, while it is still at hand (a move with no reference measures from it).
    var lastSnapshot: Snapshot?
    /// Until the first evaluation of a new leadership: the `changedAt` of the snapshot this member copied while
    /// another evaluated. Its own merges are stamped after it, on its own clock, which may be behind the last
    /// evaluator's: the first evaluation reads the changes since the earlier of it and the stored progress.
    var resumeFrom: Date?
    let token: FenceToken

    static let pageSize = 10_000

    static func load(alerts: AlertRepository, outbox: OutboxRepository, token: FenceToken) async throws -> AlertLeaderState {
        var index = AlertIndex()
        var zones = ZoneCache()
        var after: Int64 = 0
        while true {
            let page = try await alerts.watchedPage(afterID: after, limit: pageSize)
            for (alert, zone) in page { index.upsert(watched(alert, zone: zone, &zones)) }
            guard let last = page.last, page.count == pageSize else { break }
            after = last.0.id
        }
        var states: AlertStates = [:]
        var cursor: (Int64, Int) = (0, -1)
        while true {
            let page = try await outbox.statesPage(afterAlert: cursor.0, afterStation: cursor.1, limit: pageSize * 5)
            for state in page {
                let (key, value) = state.fuelState
                states[key] = value
            }
            guard let last = page.last, page.count == pageSize * 5 else { break }
            cursor = (last.alertID, last.stationID)
        }
        let progress = try await outbox.progress()
        return AlertLeaderState(evaluator: AlertEvaluator(index: index, tomorrowAnnounced: progress?.tomorrowAnnounced), states: states,
                                progress: progress, lastSnapshot: nil, resumeFrom: nil, token: token)
    }

    static func watched(_ alert: StoredAlert, zone: String, _ zones: inout ZoneCache) -> WatchedAlert {
        WatchedAlert(id: alert.id, deviceID: alert.deviceID, definition: alert.definition, zone: zones.zone(zone))
    }

    /// The state keys an alert may hold at `fuelIndex`'s stations: what a changed or deleted alert forgets.
    func stateKeys(of alert: WatchedAlert, in fuelIndex: FuelIndex) -> [AlertStateKey] {
        var keys = [AlertStateKey.area(alert.id)]
        switch alert.definition.target {
        case .stations(let ids):
            keys += ids.map { AlertStateKey(alertID: alert.id, station: $0) }
        case .near(let point, let radius):
            fuelIndex.spatial.forEach(near: point, radiusKm: radius, where: { _ in true }) { hit in
                keys.append(AlertStateKey(alertID: alert.id, station: fuelIndex.snapshot.entries[hit.slot].id))
            }
        }
        return keys
    }
}

/// One `TimeZone` per identifier: a million alerts share a few dozen zones. An unknown identifier reads as UTC.
struct ZoneCache {
    private var zones: [String: TimeZone] = [:]

    mutating func zone(_ identifier: String) -> TimeZone {
        if let zone = zones[identifier] { return zone }
        let zone = TimeZone(identifier: identifier) ?? TimeZone(secondsFromGMT: 0)!
        zones[identifier] = zone
        return zone
    }
}

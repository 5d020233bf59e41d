/// The alerts the evaluator matches changed prices against, in memory: by (station, fuel) for alerts on favourite
/// stations, by grid cell and fuel for `near` alerts, and the `wa_tomorrow` alerts apart (they answer a publication,
/// not a price). Built from the stored alerts and kept current one alert at a time, so a poll's cost grows with
/// its changes and their matches, never with the number of alerts.
public struct AlertIndex: Sendable {
    public struct StationFuel: Hashable, Sendable {
        public var station: StationID
        public var fuel: FuelType
    }

    public struct CellFuel: Hashable, Sendable {
        public var cell: AlertGridCell
        public var fuel: FuelType
    }

    public private(set) var alerts: [Int64: WatchedAlert] = [:]
    private(set) var byStation: [StationFuel: [Int64]] = [:]
    private(set) var byCell: [CellFuel: [Int64]] = [:]
    public private(set) var tomorrowAlerts: Set<Int64> = []

    public init() {}

    public init(_ alerts: some Sequence<WatchedAlert>) {
        for alert in alerts { upsert(alert) }
    }

    public var count: Int { alerts.count }

    public subscript(id: Int64) -> WatchedAlert? { alerts[id] }

    /// Adds an alert, or replaces the one with its id.
    public mutating func upsert(_ alert: WatchedAlert) {
        remove(id: alert.id)
        alerts[alert.id] = alert
        // Slots first, then the tables: a closure over `self` that mutates its tables while `self` is being read
        // would copy every table on each call.
        for slot in Self.slots(of: alert) {
            switch slot {
            case .station(let key): byStation[key, default: []].append(alert.id)
            case .cell(let key): byCell[key, default: []].append(alert.id)
            case .tomorrow: tomorrowAlerts.insert(alert.id)
            }
        }
    }

    public mutating func remove(id: Int64) {
        guard let alert = alerts.removeValue(forKey: id) else { return }
        for slot in Self.slots(of: alert) {
            switch slot {
            case .station(let key): Self.drop(id, from: &byStation, at: key)
            case .cell(let key): Self.drop(id, from: &byCell, at: key)
            case .tomorrow: tomorrowAlerts.remove(id)
            }
        }
    }

    /// The alerts a price of `fuel` at `station` (at `location`) may concern: those watching the station, and the
    /// `near` alerts of its cell (the caller measures the distance).
    public func candidates(station: StationID, fuel: FuelType, at location: Coordinate) -> (watching: [Int64], near: [Int64]) {
        (byStation[StationFuel(station: station, fuel: fuel)] ?? [], byCell[CellFuel(cell: AlertGridCell(location), fuel: fuel)] ?? [])
    }

    private enum Slot {
        case station(StationFuel)
        case cell(CellFuel)
        case tomorrow
    }

    private static func slots(of alert: WatchedAlert) -> [Slot] {
        let definition = alert.definition
        if definition.kind == .waTomorrow { return [.tomorrow] }
        switch definition.target {
        case .stations(let ids):
            return Set(ids).map { .station(StationFuel(station: $0, fuel: definition.fuel)) }
        case .near(let point, let radius):
            return AlertGridCell.covering(point, radiusKm: radius).map { .cell(CellFuel(cell: $0, fuel: definition.fuel)) }
        }
    }

    private static func drop<Key: Hashable>(_ id: Int64, from table: inout [Key: [Int64]], at key: Key) {
        guard var ids = table[key] else { return }
        ids.removeAll { $0 == id }
        table[key] = ids.isEmpty ? nil : ids
    }
}

import Foundation

/// The alerts the evaluator matches changed prices against, in memory: by (station, fuel) for alerts on favourite
/// stations, by grid cell and fuel for `near` alerts, and the `wa_tomorrow` alerts apart (they answer a publication,
/// not a price). Built from the stored alerts and kept current one alert at a time, so a poll's cost grows with
/// its changes and their matches, never with the number of alerts.
///
/// A million alerts must fit in a few hundred bytes each at most: every alert is one fixed-size `PackedAlert` in a
/// contiguous array (no per-alert heap object), its favourite stations a run of `stationPool`, its zone a number into
/// `zones`; the match tables hold 4-byte slots.
public struct AlertIndex: Sendable {
    public struct StationFuel: Hashable, Sendable {
        public var station: StationID
        public var fuel: FuelType
    }

    public struct CellFuel: Hashable, Sendable {
        public var cell: AlertGridCell
        public var fuel: FuelType
    }

    private(set) var records: [PackedAlert] = []
    /// Favourite stations of every `stations` alert, each alert's a run `stationsStart ..< + stationsCount`.
    private(set) var stationPool: [Int32] = []
    /// Pool entries no alert uses any more (removed or replaced); compacted when they are most of it.
    private var poolGarbage = 0
    private var slotByID: [Int64: Int32] = [:]
    private var freeSlots: [Int32] = []
    private(set) var zones: [TimeZone] = []
    private var zoneNumbers: [String: UInt16] = [:]
    private(set) var byStation: [StationFuel: [Int32]] = [:]
    /// The `near` alerts by cell: the price kinds apart from `cheapest_changed`, so a walk wanting one kind never
    /// reads the other's records to learn it.
    private(set) var priceCells: [CellFuel: [Int32]] = [:]
    private(set) var cheapestCells: [CellFuel: [Int32]] = [:]
    public private(set) var tomorrowAlerts: Set<Int64> = []
    private var lastSerial: UInt32 = 0

    public init() {}

    public init(_ alerts: some Sequence<WatchedAlert>) {
        for alert in alerts { upsert(alert) }
    }

    public var count: Int { slotByID.count }

    /// Room for `count` alerts without regrowing the tables (a load knows roughly how many it reads).
    public mutating func reserveCapacity(_ count: Int) {
        records.reserveCapacity(count)
        slotByID.reserveCapacity(count)
    }

    public subscript(id: Int64) -> WatchedAlert? {
        guard let slot = slotByID[id] else { return nil }
        return watched(slot: Int(slot))
    }

    /// Adds an alert, or replaces the one with its id.
    public mutating func upsert(_ alert: WatchedAlert) {
        remove(id: alert.id)
        var record = pack(alert)
        lastSerial = lastSerial == .max ? 1 : lastSerial + 1
        record.serial = lastSerial
        let slot: Int32
        if let free = freeSlots.popLast() {
            slot = free
            records[Int(free)] = record
        } else {
            slot = Int32(records.count)
            records.append(record)
        }
        slotByID[alert.id] = slot
        for key in Self.keys(of: alert) {
            switch key {
            case .station(let key): byStation[key, default: []].append(slot)
            case .cell(let key, cheapest: false): priceCells[key, default: []].append(slot)
            case .cell(let key, cheapest: true): cheapestCells[key, default: []].append(slot)
            case .tomorrow: tomorrowAlerts.insert(alert.id)
            }
        }
    }

    public mutating func remove(id: Int64) {
        guard let slot = slotByID.removeValue(forKey: id) else { return }
        let alert = watched(slot: Int(slot))
        for key in Self.keys(of: alert) {
            switch key {
            case .station(let key): Self.drop(slot, from: &byStation, at: key)
            case .cell(let key, cheapest: false): Self.drop(slot, from: &priceCells, at: key)
            case .cell(let key, cheapest: true): Self.drop(slot, from: &cheapestCells, at: key)
            case .tomorrow: tomorrowAlerts.remove(id)
            }
        }
        poolGarbage += Int(records[Int(slot)].stationsCount)
        records[Int(slot)] = PackedAlert.vacant
        freeSlots.append(slot)
        if poolGarbage > 4_096, poolGarbage * 2 > stationPool.count { compactPool() }
    }

    /// The alerts (by id) a price of `fuel` at `station` (at `location`) may concern: those watching the station,
    /// and the `near` alerts of its cell (the caller measures the distance).
    public func candidates(station: StationID, fuel: FuelType, at location: Coordinate) -> (watching: [Int64], near: [Int64]) {
        (watching(station: station, fuel: fuel).map { records[Int($0)].id },
         (nearPrice(cell: AlertGridCell(location), fuel: fuel) + nearCheapest(cell: AlertGridCell(location), fuel: fuel)).map { records[Int($0)].id })
    }

    // MARK: - What the evaluator reads, by slot

    func watching(station: StationID, fuel: FuelType) -> [Int32] {
        byStation[StationFuel(station: station, fuel: fuel)] ?? []
    }

    /// The `price_below`, `price_drop` and `price_rise` alerts filed under `cell` for `fuel`.
    func nearPrice(cell: AlertGridCell, fuel: FuelType) -> [Int32] {
        priceCells[CellFuel(cell: cell, fuel: fuel)] ?? []
    }

    /// The `cheapest_changed` alerts filed under `cell` for `fuel`.
    func nearCheapest(cell: AlertGridCell, fuel: FuelType) -> [Int32] {
        cheapestCells[CellFuel(cell: cell, fuel: fuel)] ?? []
    }

    func slot(of id: Int64) -> Int32? { slotByID[id] }

    /// The favourite stations of the alert in `slot` (none for a `near` alert).
    func stations(of slot: Int) -> [StationID] {
        let record = records[slot]
        let start = Int(record.stationsStart)
        return stationPool[start..<(start + Int(record.stationsCount))].map { StationID(Int($0)) }
    }

    /// The alert in `slot` as the rules and the decisions read it (built on demand: only matched alerts pay).
    func watched(slot: Int) -> WatchedAlert {
        let record = records[slot]
        let target: AlertDefinition.Target
        if !record.isNear {
            target = .stations(stations(of: slot))
        } else {
            target = .near(record.center, radiusKm: record.radiusKm)
        }
        return WatchedAlert(id: record.id, deviceID: record.deviceID, definition: record.definition(target: target), zone: zones[Int(record.zone)])
    }

    // MARK: - Packing

    private mutating func pack(_ alert: WatchedAlert) -> PackedAlert {
        var record = PackedAlert(alert)
        record.zone = zoneNumber(alert.zone)
        if case .stations(let ids) = alert.definition.target {
            record.stationsStart = Int32(stationPool.count)
            record.stationsCount = UInt8(ids.count)
            stationPool.append(contentsOf: ids.map { Int32(truncatingIfNeeded: $0.rawValue) })
        }
        return record
    }

    private mutating func zoneNumber(_ zone: TimeZone) -> UInt16 {
        if let number = zoneNumbers[zone.identifier] { return number }
        let number = UInt16(zones.count)
        zones.append(zone)
        zoneNumbers[zone.identifier] = number
        return number
    }

    private mutating func compactPool() {
        var pool: [Int32] = []
        pool.reserveCapacity(stationPool.count - poolGarbage)
        for slot in records.indices where records[slot].stationsCount > 0 {
            let start = Int(records[slot].stationsStart)
            records[slot].stationsStart = Int32(pool.count)
            pool.append(contentsOf: stationPool[start..<(start + Int(records[slot].stationsCount))])
        }
        stationPool = pool
        poolGarbage = 0
    }

    private enum Key {
        case station(StationFuel)
        case cell(CellFuel, cheapest: Bool)
        case tomorrow
    }

    private static func keys(of alert: WatchedAlert) -> [Key] {
        let definition = alert.definition
        if definition.kind == .waTomorrow { return [.tomorrow] }
        switch definition.target {
        case .stations(let ids):
            return Set(ids).map { .station(StationFuel(station: $0, fuel: definition.fuel)) }
        case .near(let point, let radius):
            return AlertGridCell.covering(point, radiusKm: radius).map {
                .cell(CellFuel(cell: $0, fuel: definition.fuel), cheapest: definition.kind == .cheapestChanged)
            }
        }
    }

    private static func drop<Key: Hashable>(_ slot: Int32, from table: inout [Key: [Int32]], at key: Key) {
        guard var slots = table[key] else { return }
        table[key] = nil
        if let position = slots.firstIndex(of: slot) { slots.remove(at: position) }
        if !slots.isEmpty { table[key] = slots }
    }
}

/// One alert in `AlertIndex`'s array: fixed-size fields only, so a million of them are one allocation of ~80 MB and
/// no per-alert objects. Absent optionals are sentinels (`none`); the favourite stations live in the index's pool.
struct PackedAlert: Sendable {
    static let none: Int32 = .min
    static let noMinute: Int16 = -1

    var id: Int64
    var deviceID: Int64
    var latitude: Double
    var longitude: Double
    var radiusKm: Double
    var threshold: Int32
    var change: Int32
    var stationsStart: Int32
    var stationsCount: UInt8
    var kind: UInt8
    var fuel: UInt8
    var dailyAt: Int16
    var quietFrom: Int16
    var quietTo: Int16
    var zone: UInt16
    var isNear: Bool
    /// Set by `AlertIndex` on every upsert, never 0 for a live alert: what a hold kept by slot checks it still
    /// answers the same alert (`HeldCheapest`). Fits the record's padding (72 bytes either way).
    var serial: UInt32 = 0

    private static let kinds = AlertDefinition.Kind.allCases
    private static let fuels = FuelType.allCases

    static let vacant = PackedAlert(
        id: 0, deviceID: 0, latitude: 0, longitude: 0, radiusKm: 0, threshold: none, change: none, stationsStart: 0, stationsCount: 0,
        kind: 0, fuel: 0, dailyAt: noMinute, quietFrom: noMinute, quietTo: noMinute, zone: 0, isNear: false)

    private init(
        id: Int64, deviceID: Int64, latitude: Double, longitude: Double, radiusKm: Double, threshold: Int32, change: Int32, stationsStart: Int32,
        stationsCount: UInt8, kind: UInt8, fuel: UInt8, dailyAt: Int16, quietFrom: Int16, quietTo: Int16, zone: UInt16, isNear: Bool
    ) {
        self.id = id
        self.deviceID = deviceID
        self.latitude = latitude
        self.longitude = longitude
        self.radiusKm = radiusKm
        self.threshold = threshold
        self.change = change
        self.stationsStart = stationsStart
        self.stationsCount = stationsCount
        self.kind = kind
        self.fuel = fuel
        self.dailyAt = dailyAt
        self.quietFrom = quietFrom
        self.quietTo = quietTo
        self.zone = zone
        self.isNear = isNear
    }

    /// Everything but the favourite stations and the zone, which the index files apart.
    init(_ alert: WatchedAlert) {
        let definition = alert.definition
        self = .vacant
        id = alert.id
        deviceID = alert.deviceID
        if case .near(let point, let radius) = definition.target {
            latitude = point.latitude
            longitude = point.longitude
            radiusKm = radius
            isNear = true
        }
        threshold = definition.threshold.map { Int32(truncatingIfNeeded: $0.tenths) } ?? Self.none
        change = definition.change.map { Int32(truncatingIfNeeded: $0.tenths) } ?? Self.none
        kind = UInt8(Self.kinds.firstIndex(of: definition.kind)!)
        fuel = UInt8(definition.fuel.ordinal)
        if case .daily(let at) = definition.delivery { dailyAt = Int16(at.minutes) }
        if let quiet = definition.quietHours {
            quietFrom = Int16(quiet.from.minutes)
            quietTo = Int16(quiet.to.minutes)
        }
    }

    var alertKind: AlertDefinition.Kind { Self.kinds[Int(kind)] }
    /// A `near` alert's centre.
    var center: Coordinate { Coordinate(latitude: latitude, longitude: longitude) }
    var fuelType: FuelType { Self.fuels[Int(fuel)] }
    var quietHours: QuietHours? {
        guard quietFrom != Self.noMinute, let from = TimeOfDay(minutes: Int(quietFrom)), let to = TimeOfDay(minutes: Int(quietTo)) else { return nil }
        return QuietHours(from: from, to: to)
    }

    func definition(target: AlertDefinition.Target) -> AlertDefinition {
        AlertDefinition(
            kind: alertKind, fuel: fuelType, target: target,
            threshold: threshold == Self.none ? nil : PriceTenths(tenths: Int(threshold)),
            change: change == Self.none ? nil : PriceTenths(tenths: Int(change)),
            delivery: dailyAt == Self.noMinute ? .immediate : .daily(at: TimeOfDay(minutes: Int(dailyAt))!),
            quietHours: quietHours)
    }
}

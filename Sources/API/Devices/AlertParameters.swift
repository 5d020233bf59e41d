import Fuel
import HTTP

/// The JSON body of `POST /v1/devices/{id}/alerts` and `PUT /v1/devices/{id}/alerts/{alert_id}` (a PUT replaces the
/// whole alert). Which fields a kind takes is stated once, here; station ids are checked against the snapshot by
/// the controller (`AlertStations`).
struct AlertParameters: EndpointParameters {
    static let operation = "POST /v1/devices/{id}/alerts"
    /// Far more than the largest valid alert (20 ids, every field) takes: about 600 bytes.
    static let maxBodyBytes = 16 * 1024
    /// The field that is a JSON object.
    static let objects: Set<String> = ["quiet_hours"]
    /// Each field's JSON type, as the schema states it.
    static let types: [String: JSONParameters.FieldType] = [
        "kind": .string, "fuel": .string, "station_ids": .numbers, "near": .string, "radius_km": .number, "threshold": .number,
        "change": .number, "delivery": .string, "at": .string,
    ]

    enum Name: String, ParameterName {
        /// Required: price_below, price_drop, price_rise, cheapest_changed or wa_tomorrow.
        case kind
        /// Required: one fuel code.
        case fuel
        /// 1 to 20 station ids (exclusive with `near`; the only target `wa_tomorrow` takes, WA stations only).
        case stationIDs = "station_ids"
        /// "lat,lng": stations around a point (exclusive with `station_ids`; the only target `cheapest_changed` takes).
        case near
        /// With `near`: 0.1 to 25 km.
        case radiusKm = "radius_km"
        /// `price_below` only, and required there: c/L.
        case threshold
        /// c/L, at least 1.0: required for `price_drop` and `price_rise`, optional for `cheapest_changed`.
        case change
        /// `immediate` (default) or `daily`.
        case delivery
        /// With `daily` only, and required there: "HH:MM" in the device's zone.
        case at
        /// Optional quiet hours, `{"from": "22:00", "to": "07:00"}`: both or neither.
        case quietFrom = "quiet_hours.from"
        case quietTo = "quiet_hours.to"
    }

    static let maxPrice = 1000.0
    static let maxChange = 100.0

    let definition: AlertDefinition

    init(_ params: QueryReader<Name>) throws {
        let kinds = AlertDefinition.Kind.allCases.map(\.rawValue).joined(separator: ", ")
        guard let kind = try params.choice(.kind, as: AlertDefinition.Kind.self) else { throw params.bad("kind is required: one of \(kinds)") }
        let fuel = try params.requiredFuel(.fuel)
        let target = try Self.target(params, kind: kind)
        let threshold = try params.centsPerLitre(.threshold, in: 0.1...Self.maxPrice)
        let change = try params.centsPerLitre(.change, in: Double(AlertDefinition.minChange.tenths) / 10...Self.maxChange)
        switch kind {
        case .priceBelow:
            guard threshold != nil else { throw params.bad("threshold is required for price_below: the price in c/L, e.g. 179.9") }
            if change != nil { throw params.bad("change does not apply to price_below (it takes threshold)") }
        case .priceDrop, .priceRise:
            guard change != nil else { throw params.bad("change is required for \(kind.rawValue): a move in c/L of at least 1.0") }
            if threshold != nil { throw params.bad("threshold applies to price_below only") }
        case .cheapestChanged:
            if threshold != nil { throw params.bad("threshold applies to price_below only") }
        case .waTomorrow:
            if threshold != nil { throw params.bad("threshold applies to price_below only") }
            if change != nil { throw params.bad("change does not apply to wa_tomorrow") }
        }
        definition = AlertDefinition(
            kind: kind, fuel: fuel, target: target, threshold: threshold, change: change,
            delivery: try Self.delivery(params), quietHours: try Self.quietHours(params))
    }

    static func target(_ params: QueryReader<Name>, kind: AlertDefinition.Kind) throws -> AlertDefinition.Target {
        let ids = params.contains(.stationIDs) ? try params.alertStationIDs(.stationIDs) : nil
        let near = try params.coordinate(.near)
        let radius = try params.double(.radiusKm, in: 0.1...AlertDefinition.maxRadiusKm)
        switch (ids, near) {
        case (let ids?, nil):
            if radius != nil { throw params.bad("radius_km goes with near, not with station_ids") }
            if kind == .cheapestChanged { throw params.bad("cheapest_changed watches an area: give near and radius_km instead of station_ids") }
            return .stations(ids)
        case (nil, let point?):
            if kind == .waTomorrow { throw params.bad("wa_tomorrow watches stations: give station_ids (WA stations) instead of near") }
            guard let radius else { throw params.bad("radius_km is required with near: 0.1 to \(Int(AlertDefinition.maxRadiusKm)) km") }
            return .near(point, radiusKm: radius)
        case (nil, nil):
            throw params.bad("give station_ids (1 to \(AlertDefinition.maxStations) ids) or near with radius_km")
        case (_?, _?):
            throw params.bad("give station_ids or near, not both")
        }
    }

    static func delivery(_ params: QueryReader<Name>) throws -> AlertDefinition.Delivery {
        let at = try params.timeOfDay(.at)
        switch try params.choice(.delivery, as: DeliveryName.self) ?? .immediate {
        case .immediate:
            if at != nil { throw params.bad("at goes with delivery daily") }
            return .immediate
        case .daily:
            guard let at else { throw params.bad("at is required with delivery daily: the local time, e.g. 07:30") }
            return .daily(at: at)
        }
    }

    static func quietHours(_ params: QueryReader<Name>) throws -> QuietHours? {
        let from = try params.timeOfDay(.quietFrom)
        let to = try params.timeOfDay(.quietTo)
        switch (from, to) {
        case (nil, nil): return nil
        case (let from?, let to?): return QuietHours(from: from, to: to)
        default: throw params.bad("quiet_hours needs both from and to, e.g. {\"from\": \"22:00\", \"to\": \"07:00\"}")
        }
    }

    enum DeliveryName: String, CaseIterable {
        case immediate, daily
    }
}

extension QueryReader {
    /// 1 to `AlertDefinition.maxStations` station ids, duplicates dropped.
    func alertStationIDs(_ name: Name) throws -> [StationID] {
        let key = name.rawValue
        var ids: [StationID] = []
        for part in try list(name, maxItems: AlertDefinition.maxStations) {
            guard let id = StationID(part[...]) else { throw bad("\(key) must be a list of station ids; '\(part.prefix(40))' is not one") }
            if !ids.contains(id) { ids.append(id) }
        }
        guard !ids.isEmpty else { throw bad("\(key) takes 1 to \(AlertDefinition.maxStations) station ids") }
        return ids
    }

    /// A price or a move in c/L, kept to one decimal.
    func centsPerLitre(_ name: Name, in range: ClosedRange<Double>) throws -> PriceTenths? {
        try double(name, in: range).map { PriceTenths(cents: $0) }
    }

    /// "HH:MM", 00:00 to 23:59.
    func timeOfDay(_ name: Name) throws -> TimeOfDay? {
        guard let raw = try string(name) else { return nil }
        guard let time = TimeOfDay(raw) else { throw bad("\(name.rawValue) must be a time of day as HH:MM, e.g. 07:30, got '\(raw.prefix(20))'") }
        return time
    }
}

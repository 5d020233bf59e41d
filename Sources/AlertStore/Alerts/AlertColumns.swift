import Foundation
import Fuel
import Postgres

/// The mapping between `AlertDefinition` and the `alerts` table's columns, both ways, in one place.
enum AlertColumns {
    static let names = "kind, fuel, station_ids, near_lat, near_lng, radius_km, threshold_tenths, change_tenths, delivery, at_minute, quiet_from_minute, quiet_to_minute"
    static let selectList = "id, device_id, extract(epoch FROM created_at)::float8 AS created_epoch, " + names

    /// `names`' SQL types, in order: parameters `$first...` cast to them, for an INSERT whose values come from a SELECT.
    static func typedParameters(from first: Int) -> String {
        let types = ["text", "text", "integer[]", "float8", "float8", "float8", "integer", "integer", "text", "smallint", "smallint", "smallint"]
        return types.enumerated().map { "$\($0.offset + first)::\($0.element)" }.joined(separator: ", ")
    }

    /// The 12 values for `names`, in order.
    static func values(_ definition: AlertDefinition) -> [PostgresValue] {
        var values: [PostgresValue] = [.text(definition.kind.rawValue), .text(definition.fuel.rawValue)]
        switch definition.target {
        case .stations(let ids):
            values += [PostgresValue(integers: ids.map(\.rawValue)), .null, .null, .null]
        case .near(let point, let radius):
            values += [.null, PostgresValue(point.latitude), PostgresValue(point.longitude), PostgresValue(radius)]
        }
        values += [PostgresValue(definition.threshold?.tenths), PostgresValue(definition.change?.tenths)]
        switch definition.delivery {
        case .immediate: values += ["immediate", .null]
        case .daily(let at): values += ["daily", PostgresValue(at.minutes)]
        }
        values += [PostgresValue(definition.quietHours?.from.minutes), PostgresValue(definition.quietHours?.to.minutes)]
        return values
    }

    static func alert(_ row: PostgresRow) throws -> StoredAlert {
        guard let kind = AlertDefinition.Kind(rawValue: try row.string("kind")) else { throw AlertStoreError.unreadableRow("alert kind \(row["kind"] ?? "")") }
        guard let fuel = FuelType(rawValue: try row.string("fuel")) else { throw AlertStoreError.unreadableRow("alert fuel \(row["fuel"] ?? "")") }
        let target: AlertDefinition.Target
        if let ids = row["station_ids"] {
            target = .stations(try integerArray(ids).map { StationID($0) })
        } else {
            target = .near(Coordinate(latitude: try row.double("near_lat"), longitude: try row.double("near_lng")), radiusKm: try row.double("radius_km"))
        }
        let delivery: AlertDefinition.Delivery
        if let minutes = try row.optionalInt("at_minute") {
            guard let at = TimeOfDay(minutes: minutes) else { throw AlertStoreError.unreadableRow("at_minute \(minutes)") }
            delivery = .daily(at: at)
        } else {
            delivery = .immediate
        }
        var quiet: QuietHours?
        if let from = try row.optionalInt("quiet_from_minute").flatMap(TimeOfDay.init(minutes:)),
           let to = try row.optionalInt("quiet_to_minute").flatMap(TimeOfDay.init(minutes:)) {
            quiet = QuietHours(from: from, to: to)
        }
        let definition = AlertDefinition(
            kind: kind, fuel: fuel, target: target,
            threshold: try row.optionalInt("threshold_tenths").map { PriceTenths(tenths: $0) },
            change: try row.optionalInt("change_tenths").map { PriceTenths(tenths: $0) },
            delivery: delivery, quietHours: quiet)
        return StoredAlert(id: Int64(try row.int("id")), deviceID: Int64(try row.int("device_id")), definition: definition,
                           createdAt: row["created_epoch"].flatMap(Double.init).map(Date.init(timeIntervalSince1970:)))
    }

    /// PostgreSQL's text form of an integer array: "{1,2,3}".
    static func integerArray(_ text: String) throws -> [Int] {
        guard text.hasPrefix("{"), text.hasSuffix("}") else { throw AlertStoreError.unreadableRow("integer array \(text)") }
        let inner = text.dropFirst().dropLast()
        if inner.isEmpty { return [] }
        return try inner.split(separator: ",").map { part in
            guard let value = Int(part) else { throw AlertStoreError.unreadableRow("integer array \(text)") }
            return value
        }
    }
}

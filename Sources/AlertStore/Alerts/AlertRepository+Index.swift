import Foundation
import Fuel
import Postgres

/// What the evaluator's index loads: alerts with their device's time zone.
extension AlertRepository {
    static let watchedSelect = "SELECT a.id, a.device_id, \(AlertColumns.names.split(separator: ",").map { "a." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", ")), d.time_zone FROM alerts a JOIN devices d ON d.id = a.device_id"

    /// Alerts with an id above `afterID`, `limit` at a time, each with its device's zone.
    public func watchedPage(afterID: Int64, limit: Int) async throws -> [(StoredAlert, String)] {
        try await client.query("\(Self.watchedSelect) WHERE a.id > $1 ORDER BY a.id LIMIT $2", [.text(String(afterID)), .text(String(limit))])
            .rows.map { (try AlertColumns.alert($0), try $0.string("time_zone")) }
    }

    /// These alerts with their devices' zones, by id, in one query; a deleted one is missing.
    public func watched(ids: [Int64]) async throws -> [Int64: (StoredAlert, String)] {
        guard !ids.isEmpty else { return [:] }
        let rows = try await client.query("\(Self.watchedSelect) WHERE a.id = ANY($1::bigint[])", [PostgresValue(integers: ids.map { Int($0) })])
        var found: [Int64: (StoredAlert, String)] = [:]
        for row in rows.rows {
            let alert = try AlertColumns.alert(row)
            found[alert.id] = (alert, try row.string("time_zone"))
        }
        return found
    }

    /// A device's alerts with its zone (after the device changed zone).
    public func watched(deviceID: Int64) async throws -> [(StoredAlert, String)] {
        try await client.query("\(Self.watchedSelect) WHERE a.device_id = $1 ORDER BY a.id", [.text(String(deviceID))])
            .rows.map { (try AlertColumns.alert($0), try $0.string("time_zone")) }
    }
}

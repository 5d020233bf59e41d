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

    /// One alert with its device's zone; nil once deleted.
    public func watched(id: Int64) async throws -> (StoredAlert, String)? {
        try await client.query("\(Self.watchedSelect) WHERE a.id = $1", [.text(String(id))]).rows.first.map { (try AlertColumns.alert($0), try $0.string("time_zone")) }
    }

    /// A device's alerts with its zone (after the device changed zone).
    public func watched(deviceID: Int64) async throws -> [(StoredAlert, String)] {
        try await client.query("\(Self.watchedSelect) WHERE a.device_id = $1 ORDER BY a.id", [.text(String(deviceID))])
            .rows.map { (try AlertColumns.alert($0), try $0.string("time_zone")) }
    }
}

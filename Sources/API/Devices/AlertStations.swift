import Fuel
import HTTP

/// The station checks an alert needs the snapshot for: every id exists, and `wa_tomorrow` watches WA stations only.
enum AlertStations {
    static func check(_ definition: AlertDefinition, in snapshot: Snapshot) throws {
        guard case .stations(let ids) = definition.target else { return }
        let unknown = ids.filter { snapshot[$0] == nil }
        guard unknown.isEmpty else {
            throw Abort(.badRequest, reason: "station_ids: no station has the id \(unknown.map(\.description).joined(separator: ", "))")
        }
        if definition.kind == .waTomorrow {
            let elsewhere = ids.filter { snapshot.station($0)?.state != .WA }
            guard elsewhere.isEmpty else {
                throw Abort(.badRequest, reason: "station_ids: wa_tomorrow takes WA stations only (FuelWatch publishes tomorrow's prices); not in WA: \(elsewhere.map(\.description).joined(separator: ", "))")
            }
        }
    }
}

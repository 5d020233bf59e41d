import Foundation

/// Instants are written as `Date`'s own seconds since 2001 (a JSON double round-trips exactly), never through a date
/// strategy: a cursor names an instant by its bits, so a restart must give back the very same ones.
extension ChangeLog: Codable {
    private enum CodingKeys: String, CodingKey { case horizon, version, stations, removals }

    private struct StationStamp: Codable {
        var id: StationID
        var at: Double
    }

    private struct StoredPosition: Codable {
        var at: Double
        var station: StationID
        var fuel: FuelType?
    }

    private struct StoredRemoval: Codable {
        var at: Double
        var station: StationID
        var state: AustralianState
        var fuel: FuelType?
    }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        horizon = try container.decodeIfPresent(StoredPosition.self, forKey: .horizon).map {
            ChangeCursor(changedAt: Date(timeIntervalSinceReferenceDate: $0.at), station: $0.station, fuel: $0.fuel)
        }
        version = try container.decode(UInt64.self, forKey: .version)
        let stamps = try container.decode([StationStamp].self, forKey: .stations)
        stations = Dictionary(stamps.map { ($0.id, Date(timeIntervalSinceReferenceDate: $0.at)) }, uniquingKeysWith: max)
        removals = try container.decode([StoredRemoval].self, forKey: .removals).map {
            Removal(at: Date(timeIntervalSinceReferenceDate: $0.at), station: $0.station, state: $0.state, fuel: $0.fuel)
        }
        removals.sort { ($0.at, $0.station, $0.fuel?.ordinal ?? -1) < ($1.at, $1.station, $1.fuel?.ordinal ?? -1) }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(horizon.map {
            StoredPosition(at: $0.changedAt.timeIntervalSinceReferenceDate, station: $0.station, fuel: $0.fuel)
        }, forKey: .horizon)
        try container.encode(version, forKey: .version)
        let stamps = stations.sorted { $0.key < $1.key }.map { StationStamp(id: $0.key, at: $0.value.timeIntervalSinceReferenceDate) }
        try container.encode(stamps, forKey: .stations)
        try container.encode(removals.map {
            StoredRemoval(at: $0.at.timeIntervalSinceReferenceDate, station: $0.station, state: $0.state, fuel: $0.fuel)
        }, forKey: .removals)
    }
}

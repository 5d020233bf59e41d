import Fuel

/// The map pin form of a station (`compact=true`): `{"id":1,"brand":"BP","location":[-33.86880,151.20930]`
/// written once per snapshot, left open so a list appends the asked fuel's `price` and `tomorrow`. Five decimals
/// (about a metre) and a `[lat, lng]` pair keep a state-wide viewport of 500 stations under 40 KB.
enum CompactStationEncoding {
    static func head(_ station: Station) -> [UInt8] {
        var json = JSONWriter(capacity: 72)
        json.raw("{\"id\":")
        json.int(station.id.rawValue)
        json.field("brand", station.brand)
        json.raw(",\"location\":[")
        json.decimal(station.location.latitude, places: 5)
        json.raw(",")
        json.decimal(station.location.longitude, places: 5)
        json.raw("]")
        return json.bytes
    }
}

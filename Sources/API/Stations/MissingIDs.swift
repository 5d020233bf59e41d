import Fuel

/// `meta.missing` on `ids=` lists (favourites): the requested ids this snapshot does not hold, so an app can tell a
/// station that closed from one it has not loaded.
enum MissingIDs {
    static func write(_ missing: [StationID], into json: inout some JSONOutput) {
        json.raw(",\"missing\":[")
        for (index, id) in missing.enumerated() {
            if index > 0 { json.raw(",") }
            json.int(id.rawValue)
        }
        json.raw("]")
    }
}

import Fuel

/// The v1 station object, written once per snapshot. The fragment leaves the object open (no final `}`) so a
/// list can append `"distance_km"` for `near` queries without re-encoding the station.
enum StationEncoding {
    /// VIC's open data is published a day late; clients are told so on every VIC station.
    /// The domain's one statement of each provider's publication delay (`HistoryDay.dataDelay`), in hours.
    static let delayHours: [ProviderID: Int] = HistoryDay.dataDelay.mapValues { Int($0 / 3_600) }

    /// `standing` says, per fuel, why a price does not count (written as `"stale"` / `"implausible"`); `versus` is
    /// the price against its metro area's or state's average (`FuelIndex.versusAverageComparison`), written as
    /// `vs_average` and `vs_average_of`.
    static func fragment(
        _ entry: StationEntry, source: DataSource, standing: (FuelType) -> PriceStanding = { _ in [] },
        versus: (FuelType) -> VersusAverage.Comparison? = { _ in nil }
    ) -> [UInt8] {
        let station = entry.station
        var json = JSONWriter(capacity: 320 + entry.prices.count * 110)
        json.raw("{\"id\":")
        json.int(station.id.rawValue)
        json.field("name", station.name)
        json.field("brand", station.brand)
        json.field("brand_key", station.brandKey)
        json.field("address", station.address)
        json.field("suburb", station.suburb)
        json.field("state", station.state.rawValue)
        json.field("postcode", station.postcode)
        json.raw(",\"location\":{\"latitude\":")
        json.decimal(station.location.latitude, places: 6)
        json.field("longitude", station.location.longitude, places: 6)
        json.raw("},\"provider\":")
        json.string(station.provider.rawValue)
        json.field("source", source.rawValue)
        if let delay = delayHours[station.provider] {
            json.field("data_delay_hours", delay)
        }
        writeFacts(station, into: &json)
        writeAccess(station, into: &json)
        json.raw(",\"prices\":[")
        for (index, price) in entry.prices.enumerated() {
            if index > 0 { json.raw(",") }
            writePrice(price, standing: standing(price.fuel), versus: versus(price.fuel), into: &json)
        }
        json.raw("]")
        // A WA fuel with no price today (the station closed) but one published for tomorrow: present only then, so
        // the usual station object is unchanged, and an app can show what the share page shows.
        if !entry.tomorrowOnly.isEmpty {
            json.raw(",\"tomorrow_only\":[")
            for (index, only) in entry.tomorrowOnly.enumerated() {
                if index > 0 { json.raw(",") }
                json.raw("{\"fuel\":")
                json.string(only.fuel.rawValue)
                json.field("fuel_name", only.fuel.displayName)
                json.raw(",\"tomorrow\":{\"price\":")
                json.price(only.tomorrow.price)
                json.field("day", only.tomorrow.day)
                json.raw("}}")
            }
            json.raw("]")
        }
        return json.bytes
    }

    /// Where `{"id":…,"name":"…"` ends in a `fragment`: just past the name's closing quote (an escaped quote inside
    /// the name is skipped), or nil for bytes that do not start that way.
    static func nameEnd(in fragment: ArraySlice<UInt8>) -> Int? {
        let key: StaticString = ",\"name\":\""
        guard let comma = fragment.firstIndex(of: UInt8(ascii: ",")),
              key.withUTF8Buffer({ fragment[comma...].starts(with: $0) })
        else { return nil }
        var position = comma + key.utf8CodeUnitCount
        while position < fragment.endIndex {
            switch fragment[position] {
            case UInt8(ascii: "\\"): position += 2
            case UInt8(ascii: "\""): return position + 1
            default: position += 1
            }
        }
        return nil
    }

    /// A slot's price flags folded into one number (two bits per fuel), so a render can tell whether a station's
    /// JSON written for an earlier snapshot still holds.
    static func marks(_ entry: StationEntry, standing: (FuelType) -> PriceStanding) -> UInt32 {
        var marks: UInt32 = 0
        for price in entry.prices { marks |= UInt32(standing(price.fuel).rawValue & 3) << (2 * UInt32(FuelType.allCases.firstIndex(of: price.fuel)!)) }
        return marks
    }

    static func writePrice(
        _ price: StationPrice, standing: PriceStanding = [], versus: VersusAverage.Comparison? = nil, into json: inout JSONWriter
    ) {
        json.raw("{\"fuel\":")
        json.string(price.fuel.rawValue)
        json.field("fuel_name", price.fuel.displayName)
        json.field("price", price.price)
        json.field("vs_average", versus.map { VersusAverage.rounded($0.difference) }, places: 1)
        json.field("vs_average_of", versus?.of)
        json.field("updated_at", ISOTimestamp.string(price.updatedAt))
        // Present only when true, so the usual price object is unchanged.
        if standing.contains(.stale) { json.raw(",\"stale\":true") }
        if standing.contains(.implausible) { json.raw(",\"implausible\":true") }
        if let tomorrow = price.tomorrow {
            json.raw(",\"tomorrow\":{\"price\":")
            json.price(tomorrow.price)
            json.field("day", tomorrow.day)
            json.field("verdict", TomorrowVerdict(today: price.price, tomorrow: tomorrow.price).rawValue)
            json.raw("}")
        }
        json.raw("}")
    }
}

/// `data` of `GET /v1/tomorrow`.
struct TomorrowDTO: Codable, Sendable {
    struct StationVerdict: Codable, Sendable {
        var stationId: Int
        var name: String
        var brand: String
        var suburb: String
        var fuel: String
        /// Null (written, not omitted) when the station has no price today: verdict `no_price_today`.
        var today: CentsValue?
        var tomorrow: CentsValue
        var difference: Rounded?
        var verdict: String
        var distanceKm: Rounded?

        private enum CodingKeys: String, CodingKey {
            case stationId, name, brand, suburb, fuel, today, tomorrow, difference, verdict, distanceKm
        }

        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(stationId, forKey: .stationId)
            try container.encode(name, forKey: .name)
            try container.encode(brand, forKey: .brand)
            try container.encode(suburb, forKey: .suburb)
            try container.encode(fuel, forKey: .fuel)
            try container.encode(today, forKey: .today)
            try container.encode(tomorrow, forKey: .tomorrow)
            try container.encode(difference, forKey: .difference)
            try container.encode(verdict, forKey: .verdict)
            try container.encodeIfPresent(distanceKm, forKey: .distanceKm)
        }
    }

    struct Summary: Codable, Sendable {
        var todayCheaper: Int
        var tomorrowCheaper: Int
        var same: Int
        var noPriceToday: Int
    }

    var state: String
    var fuel: String?
    var available: Bool
    var reason: String?
    var tradingDay: String?
    var publishedAt: String?
    var expectedAt: String?
    var summary: Summary?
    var stations: [StationVerdict]
}

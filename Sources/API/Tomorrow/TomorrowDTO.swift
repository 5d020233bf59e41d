/// `data` of `GET /v1/tomorrow`.
struct TomorrowDTO: Codable, Sendable {
    struct StationVerdict: Codable, Sendable {
        var stationId: Int
        var name: String
        var brand: String
        var suburb: String
        var fuel: String
        /// Null (written, not omitted) when the station has no price today: verdict `no_price_today`.
        @WrittenNull var today: CentsValue?
        var tomorrow: CentsValue
        @WrittenNull var difference: Rounded?
        var verdict: String
        var distanceKm: Rounded?
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

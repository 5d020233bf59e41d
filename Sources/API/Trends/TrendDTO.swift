/// `data` of `GET /v1/trends`.
struct TrendDTO: Codable, Sendable {
    struct Point: Codable, Sendable {
        var day: String
        var average: Rounded
        var min: CentsValue
        var max: CentsValue
        var stationCount: Int
    }

    struct CycleDTO: Codable, Sendable {
        var position: Rounded
        var direction: String
        var change: Rounded
        var low: Rounded
        var high: Rounded
    }

    var state: String
    var fuel: String
    var days: Int
    /// `state` when the series counts the stations `/v1/averages` counts, `panel` when it follows a recorded subset
    /// (`SeriesBasis`): a panel's averages are never compared with the state's.
    var basis: String
    var through: String?
    /// The day the state's current prices describe (`date` in `/v1/averages`); the window ends on it. Null
    /// (written) without current data.
    @WrittenNull var asOfDate: String?
    var points: [Point]
    var cycle: CycleDTO?
}

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
    var through: String?
    /// The day the state's current prices describe (`date` in `/v1/averages`); the window ends on it. Null
    /// (written) without current data.
    var asOfDate: String?
    var points: [Point]
    var cycle: CycleDTO?

    private enum CodingKeys: String, CodingKey { case state, fuel, days, through, asOfDate, points, cycle }

    func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(state, forKey: .state)
        try container.encode(fuel, forKey: .fuel)
        try container.encode(days, forKey: .days)
        try container.encodeIfPresent(through, forKey: .through)
        try container.encode(asOfDate, forKey: .asOfDate)
        try container.encode(points, forKey: .points)
        try container.encodeIfPresent(cycle, forKey: .cycle)
    }
}

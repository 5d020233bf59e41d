import Fuel

/// The `data` object of `/v1/advice` (and `advice` in `/v1/summary`): every field present in every answer, null
/// where it does not apply, written in one place whichever kind of advice it holds.
struct AdviceBody {
    var city: MetroArea?
    var state: AustralianState?
    var fuel: FuelType
    var verdict: CycleAdvice.Verdict
    var reason: String
    var reading: CycleReading?
    var tomorrow: TomorrowOutlook?
    var skill: AdviceSkill?

    /// A metro area's cycle advice.
    init(_ advice: CycleAdvice) {
        city = advice.city
        state = advice.city.state
        fuel = advice.fuel
        verdict = advice.verdict
        reason = advice.reason
        reading = advice.reading
        tomorrow = advice.tomorrow
        skill = advice.skill
    }

    /// A WA point outside Perth, from the published tomorrow prices near it.
    init(_ nearby: NearbyTomorrowAdvice) {
        state = .WA
        fuel = nearby.fuel
        verdict = nearby.verdict
        reason = nearby.reason
        tomorrow = nearby.outlook
    }

    /// A point outside every metro area.
    init(outside fuel: FuelType, reason: String) {
        self.fuel = fuel
        verdict = .noCycle
        self.reason = reason
    }

    func write(into json: inout JSONWriter) {
        json.raw("{\"city\":")
        if let city { json.string(city.rawValue) } else { json.null() }
        json.field("state", state?.rawValue)
        json.field("fuel", fuel.rawValue)
        json.field("advice", verdict.rawValue)
        json.field("reason", reason)
        json.raw(",\"cycle\":")
        if let reading {
            Self.write(reading, into: &json)
        } else {
            json.raw("null,\"history_days\":0,\"through\":null,\"average\":null")
        }
        json.raw(",\"tomorrow\":")
        if let tomorrow { Self.write(tomorrow, into: &json) } else { json.null() }
        json.raw(",\"skill\":")
        if let skill { Self.write(skill, into: &json) } else { json.null() }
        json.raw("}")
    }

    /// `cycle`, then the fields that follow from the reading: `history_days`, `through` and `average`.
    private static func write(_ reading: CycleReading, into json: inout JSONWriter) {
        json.raw("{\"position\":")
        json.decimal(reading.cycle.position, places: 2)
        json.field("direction", reading.cycle.direction.rawValue)
        json.field("days_since_low", reading.daysSinceLow)
        json.field("days_since_high", reading.daysSinceHigh)
        json.field("typical_length_days", reading.typicalLengthDays)
        json.field("low", reading.cycle.low, places: 1)
        json.field("high", reading.cycle.high, places: 1)
        json.raw("},\"history_days\":")
        json.int(reading.historyDays)
        json.field("through", reading.through.description)
        json.field("average", reading.latest, places: 1)
    }

    private static func write(_ tomorrow: TomorrowOutlook, into json: inout JSONWriter) {
        json.raw("{\"trading_day\":")
        json.string(tomorrow.tradingDay)
        json.field("today_average", tomorrow.todayAverage, places: 1)
        json.field("tomorrow_average", tomorrow.tomorrowAverage, places: 1)
        json.field("station_count", tomorrow.stationCount)
        json.raw("}")
    }

    private static func write(_ skill: AdviceSkill, into json: inout JSONWriter) {
        json.raw("{\"hit_rate\":")
        json.decimal(skill.hitRate, places: 2)
        json.field("best_baseline", skill.bestBaseline.rawValue)
        json.field("baseline_hit_rate", skill.baselineHitRate, places: 2)
        json.field("days_scored", skill.daysScored)
        json.raw("}")
    }
}

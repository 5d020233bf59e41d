import Foundation

/// Daily price points per state and fuel, persisted beside the snapshot. Days are the state's local
/// calendar days; a day's point is recomputed from every merged snapshot whose provider `asOf` falls on it.
/// Each state keeps at least `minimumDays` (90) and drops points more than `retentionDays` (120) older
/// than its newest day.
public struct History: Hashable, Sendable {
    public static let minimumDays = 90
    public static let retentionDays = 120

    /// Points per (state, fuel), sorted by day ascending (`yyyy-MM-dd` sorts chronologically as text).
    public private(set) var series: [StateFuel: [DailyPoint]]
    /// Points per (metro area, fuel), kept like `series` under the area's state (see `History+Metro`).
    public internal(set) var metro: [MetroFuel: [DailyPoint]] = [:]
    /// How the cycle advice did against the naive baselines on each metro series' held-out days, recomputed
    /// whenever a city's series change (`History+Skill`), saved with them.
    public internal(set) var skill: [MetroFuel: AdviceSkill] = [:]

    public init() { series = [:] }

    public init(series: [StateFuel: [DailyPoint]]) {
        self.series = series.mapValues { points in
            var byDay: [String: DailyPoint] = [:]
            for point in points { byDay[point.day] = point }
            return byDay.values.sorted { $0.day < $1.day }
        }
    }

    public func points(state: AustralianState, fuel: FuelType) -> [DailyPoint] {
        series[StateFuel(state, fuel)] ?? []
    }

    /// The newest day with any point for `state`.
    public func newestDay(in state: AustralianState) -> CalendarDay? {
        series.lazy.filter { $0.key.state == state }.compactMap { $0.value.last.flatMap { CalendarDay($0.day) } }.max()
    }

    public var isEmpty: Bool { series.values.allSatisfy(\.isEmpty) }

    /// Sets `day`'s point for every fuel `averages` has in `state`, then prunes the state.
    /// Fuels absent from `averages` keep whatever point they had.
    public func recording(_ averages: Averages, state: AustralianState, day: CalendarDay) -> History {
        var history = self
        let text = day.description
        for average in averages.averages(in: state) {
            let key = StateFuel(state, average.fuel)
            var points = history.series[key] ?? []
            let point = DailyPoint(day: day, average: average)
            if let index = points.firstIndex(where: { $0.day >= text }) {
                if points[index].day == text { points[index] = point } else { points.insert(point, at: index) }
            } else {
                points.append(point)
            }
            history.series[key] = points
        }
        history.prune(state)
        return history
    }

    /// Records today's points for the states `provider` serves in `snapshot`: `describedDay` when the update
    /// said which day it describes, else the day of the provider's `asOf` as `HistoryDay` labels it (WA: the
    /// trading day). Without `asOf` nothing is recorded.
    public func recording(_ snapshot: Snapshot, provider: ProviderID, describedDay: CalendarDay? = nil) -> History {
        guard let asOf = snapshot.asOf(provider) else { return self }
        let states = Set(snapshot.entries.lazy.filter { $0.station.provider == provider }.map(\.station.state))
        guard !states.isEmpty else { return self }
        let judge = snapshot.judge
        // Every state's (the index reads the same ones); only `states`' rows are recorded.
        let averages = snapshot.averages
        var history = self
        for state in states.sorted() {
            let day = describedDay ?? HistoryDay.of(asOf: asOf, state: state)
            history = history.recording(averages, state: state, day: day)
            history.recordMetro(snapshot, judge: judge, state: state, day: day)
        }
        return history
    }

    /// Records the points of every provider in `snapshot` (seeding from dated snapshots).
    public func recording(_ snapshot: Snapshot) -> History {
        snapshot.statuses.reduce(self) { $0.recording(snapshot, provider: $1.provider) }
    }

    private mutating func prune(_ state: AustralianState) {
        guard let newest = newestDay(in: state) else { return }
        let oldest = newest.advanced(by: -Self.retentionDays).description
        for (key, points) in series where key.state == state {
            guard let first = points.first, first.day < oldest else { continue }
            series[key] = points.filter { $0.day >= oldest }
        }
        pruneMetro(state, before: oldest)
    }
}

extension History: Codable {
    private struct Series: Codable {
        var state: AustralianState
        var fuel: FuelType
        var points: [DailyPoint]
    }

    private enum CodingKeys: String, CodingKey { case series, metro, skill }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let list = try container.decode([Series].self, forKey: .series)
        var series: [StateFuel: [DailyPoint]] = [:]
        for item in list { series[StateFuel(item.state, item.fuel), default: []] += item.points }
        self.init(series: series)
        // Absent in files written before metro averages were kept.
        let metroList = try container.decodeIfPresent([MetroSeries].self, forKey: .metro) ?? []
        metro = Self.sortedByDay(Dictionary(metroList.map { (MetroFuel($0.city, $0.fuel), $0.points) }, uniquingKeysWith: +))
        // Scores are derived from the series: recomputed rather than trusted (files from before they were kept have none).
        rescore()
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        let list = series.keys.sorted().map { Series(state: $0.state, fuel: $0.fuel, points: series[$0]!) }
        try container.encode(list, forKey: .series)
        guard !metro.isEmpty else { return }
        try container.encode(metro.keys.sorted().map { MetroSeries(city: $0.city, fuel: $0.fuel, points: metro[$0]!) }, forKey: .metro)
        try container.encode(skill.keys.sorted().map { ScoredSeries(city: $0.city, fuel: $0.fuel, skill: skill[$0]!) }, forKey: .skill)
    }
}

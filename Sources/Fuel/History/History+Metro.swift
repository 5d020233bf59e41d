import Foundation

/// Daily metro averages: the same points as a state's, over the stations inside a `MetroArea` only, labelled with
/// the state's day (WA's trading day, VIC's described day) and pruned with the state.
extension History {
    struct MetroSeries: Codable {
        var city: MetroArea
        var fuel: FuelType
        var points: [DailyPoint]
    }

    public init(series: [StateFuel: [DailyPoint]], metro: [MetroFuel: [DailyPoint]]) {
        self.init(series: series)
        self.metro = Self.sortedByDay(metro)
        rescore()
    }

    public func points(city: MetroArea, fuel: FuelType) -> [DailyPoint] {
        metro[MetroFuel(city, fuel)] ?? []
    }

    /// Sets `day`'s point for every fuel with counted prices in `state`'s metro area. Uses the prices that count
    /// for the state average (current and plausible), so a city point and its state's agree on what a price is.
    mutating func recordMetro(_ snapshot: Snapshot, judge: PriceJudge, state: AustralianState, day: CalendarDay) {
        guard let city = MetroArea.capital(of: state) else { return }
        var totals: [FuelType: [Int]] = [:]
        for entry in snapshot.entries where entry.station.state == state && MetroArea.of(entry.station) == city {
            for price in entry.prices where judge.standing(of: price, at: entry.station) == .counts {
                totals[price.fuel, default: []].append(price.price.tenths)
            }
        }
        let text = day.description
        for (fuel, values) in totals {
            let point = DailyPoint(
                day: text, average: Double(values.reduce(0, +)) / Double(values.count) / 10,
                min: PriceTenths(tenths: values.min()!), max: PriceTenths(tenths: values.max()!), stationCount: values.count)
            let key = MetroFuel(city, fuel)
            var points = metro[key] ?? []
            if let index = points.firstIndex(where: { $0.day >= text }) {
                if points[index].day == text { points[index] = point } else { points.insert(point, at: index) }
            } else {
                points.append(point)
            }
            metro[key] = points
        }
        rescore(city)
    }

    mutating func pruneMetro(_ state: AustralianState, before oldest: String) {
        for (key, points) in metro where key.city.state == state {
            guard let first = points.first, first.day < oldest else { continue }
            metro[key] = points.filter { $0.day >= oldest }
        }
        if let city = MetroArea.capital(of: state) { rescore(city) }
    }

    /// One point per day (the last given wins), sorted by day.
    static func sortedByDay<Key>(_ table: [Key: [DailyPoint]]) -> [Key: [DailyPoint]] {
        table.mapValues { points in
            var byDay: [String: DailyPoint] = [:]
            for point in points { byDay[point.day] = point }
            return byDay.values.sorted { $0.day < $1.day }
        }
    }
}

extension History {
    /// Adds `points` for days the city has no point of its own (a regulator's published metro averages as a seed:
    /// our own average, where we have one, is over the stations we serve).
    public func fillingMetro(_ city: MetroArea, _ fuel: FuelType, with points: [DailyPoint]) -> History {
        var history = self
        let key = MetroFuel(city, fuel)
        let own = Set((metro[key] ?? []).map(\.day))
        history.metro[key] = Self.sortedByDay([key: (metro[key] ?? []) + points.filter { !own.contains($0.day) }])[key]
        history.rescore(city)
        return history
    }
}

/// A window of daily points for one state and fuel, with its cycle.
public struct Trend: Hashable, Codable, Sendable {
    public var state: AustralianState
    public var fuel: FuelType
    /// The window's last day: the day the state's current prices describe, else the newest day with data for the
    /// state (any fuel); nil without data.
    public var through: String?
    /// Oldest first; days without data are absent.
    public var points: [DailyPoint]
    /// nil when the window holds no point for the fuel.
    public var cycle: Cycle?
}

extension History {
    /// The last `days` days of `fuel` in `state`, counted back from `through` (the day the state's current prices
    /// describe, `Snapshot.dataDays`, so the trend ends where `/v1/averages` is), else from the newest day with data
    /// for the state (never from the wall clock, so a stalled feed still shows its last month).
    public func trend(state: AustralianState, fuel: FuelType, days: Int, through: CalendarDay? = nil) -> Trend {
        guard let newest = through ?? newestDay(in: state), days > 0 else {
            return Trend(state: state, fuel: fuel, through: nil, points: [], cycle: nil)
        }
        let first = newest.advanced(by: -(days - 1)).description
        let last = newest.description
        let points = self.points(state: state, fuel: fuel).filter { $0.day >= first && $0.day <= last }
        return Trend(state: state, fuel: fuel, through: last, points: points, cycle: Cycle(points: points))
    }
}

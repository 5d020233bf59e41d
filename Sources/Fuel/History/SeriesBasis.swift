/// Which stations a state's daily series describes on the day its current average describes: the state's (the
/// same population `/v1/averages` counts) or a panel's (a recorded subset: VIC's sample history follows 120 of its
/// 1,754 stations). A panel's figures are a different population, so they are never set beside the state's
/// average or subtracted from it: one figure per state, fuel and day.
public enum SeriesBasis: String, Sendable {
    case state
    case panel

    /// A series point over fewer than this share of the stations the state's average counts is a panel's.
    public static let panelShare = 0.8

    /// `points`: the series, oldest first; `day`: the day the state's current prices describe; `stations`: how many
    /// the state's current average counts. A series with no point for `day` is the state's (nothing to compare).
    public static func of(_ points: [DailyPoint], day: CalendarDay?, stations: Int?) -> SeriesBasis {
        guard let day, let stations, stations > 0, let point = points.last(where: { $0.day == day.description }) else { return .state }
        return Double(point.stationCount) < panelShare * Double(stations) ? .panel : .state
    }
}

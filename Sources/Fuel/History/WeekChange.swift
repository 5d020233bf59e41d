/// A state's 7-day change for the day its averages describe: that day's recorded average minus the one 7 days
/// before. When either point is missing there is no change: numbers from two different days (or populations) are
/// never paired.
public struct WeekChange: Hashable, Sendable {
    /// The day the change ends on: the day the state's current averages describe.
    public var day: CalendarDay
    /// Cents per litre; nil when either point is missing.
    public var value: Double?

    /// Nil without a `day` (no data for the state). `points` are one series' daily points, oldest first.
    public init?(points: [DailyPoint], day: CalendarDay?) {
        guard let day else { return nil }
        self.day = day
        let earlier = day.advanced(by: -7).description
        guard let last = points.last(where: { $0.day == day.description }),
            let before = points.last(where: { $0.day == earlier })
        else { return }
        value = last.average - before.average
    }
}

/// Where a city's latest daily average sits in its recent price cycle: `Cycle`'s position and direction plus how
/// long ago the window's low and high were and, when the window shows two or more troughs, how long a cycle runs.
public struct CycleReading: Hashable, Sendable {
    public var cycle: Cycle
    /// The day of the latest point (the state's calendar; WA's trading day).
    public var through: CalendarDay
    public var daysSinceLow: Int
    public var daysSinceHigh: Int
    /// Median days between successive troughs; nil with fewer than two.
    public var typicalLengthDays: Int?
    /// Points in the window.
    public var historyDays: Int
    /// The newest daily average, in cents.
    public var latest: Double

    /// Days of history a reading looks back over: long enough for one full Melbourne or Sydney cycle (4-7 weeks).
    public static let windowDays = 42

    /// A reading of the points within `windowDays` of the newest one (oldest first); nil without points.
    public init?(points: [DailyPoint], windowDays: Int = Self.windowDays) {
        guard let last = points.last, let through = CalendarDay(last.day) else { return nil }
        let first = through.advanced(by: -(windowDays - 1)).description
        let window = points.filter { $0.day >= first }
        guard let cycle = Cycle(points: window) else { return nil }
        let days = window.map { CalendarDay($0.day)! }
        // The most recent extreme: a cycle that touched the same low twice is measured from the latest touch.
        let lowIndex = window.indices.last { window[$0].average <= cycle.low }!
        let highIndex = window.indices.last { window[$0].average >= cycle.high }!
        self.cycle = cycle
        self.through = through
        self.daysSinceLow = through.days(since: days[lowIndex])
        self.daysSinceHigh = through.days(since: days[highIndex])
        self.typicalLengthDays = Self.typicalLength(days: days, averages: window.map(\.average))
        self.historyDays = window.count
        self.latest = window.last!.average
    }

    /// The median distance between troughs, a trough being the lowest point between two rises of at least
    /// `swingCents` (zig-zag): smaller wiggles are averaging noise, not a cycle.
    static func typicalLength(days: [CalendarDay], averages: [Double], swingCents: Double = CycleAdvice.minimumRangeCents) -> Int? {
        guard averages.count > 2 else { return nil }
        var troughs: [CalendarDay] = []
        var falling = true
        var extreme = 0
        for index in averages.indices.dropFirst() {
            if falling {
                if averages[index] <= averages[extreme] {
                    extreme = index
                } else if averages[index] - averages[extreme] >= swingCents {
                    troughs.append(days[extreme])
                    falling = false
                    extreme = index
                }
            } else {
                if averages[index] >= averages[extreme] {
                    extreme = index
                } else if averages[extreme] - averages[index] >= swingCents {
                    falling = true
                    extreme = index
                }
            }
        }
        guard troughs.count >= 2 else { return nil }
        let gaps = zip(troughs.dropFirst(), troughs).map { $0.days(since: $1) }.sorted()
        return gaps[gaps.count / 2]
    }
}

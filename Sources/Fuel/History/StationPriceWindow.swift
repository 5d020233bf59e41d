import Foundation

/// One station's price of one fuel over a window of days: each change and each day's low, high and close.
public struct StationPriceWindow: Hashable, Sendable {
    /// One day in the state's calendar (`HistoryDay.of`: WA's 06:00 trading day, elsewhere local midnight).
    public struct Day: Hashable, Sendable {
        public var day: CalendarDay
        /// Over the price carried into the day and every change during it.
        public var low: PriceTenths
        public var high: PriceTenths
        /// In effect at the end of the day (for today: now).
        public var close: PriceTenths
    }

    /// The changes made within the window, oldest first, each with whether it counts.
    public var changes: [PriceMark]
    /// Per change, whether it is implausible (`counts` said no): listed, but left out of the days' low, high and close.
    public var implausible: [Bool]
    /// Every day of the window from the first one with a known price, oldest first.
    public var daily: [Day]

    /// The `days` days of `state`'s calendar ending on `through`, from `marks` (oldest first). `counts` judges each
    /// price (`PriceJudge.isPlausible`): a typo such as 25.9 is listed among the changes, flagged, and never a low.
    public init(
        marks: [PriceMark], state: AustralianState, through: CalendarDay, days: Int, counts: (PriceTenths) -> Bool = { _ in true }
    ) {
        let first = through.advanced(by: -(max(days, 1) - 1))
        var changes: [PriceMark] = []
        var implausible: [Bool] = []
        var daily: [Day] = []
        var carried: PriceTenths?
        var current: Day?
        func close(until day: CalendarDay) {
            // Days without a change keep the price carried in, so the series has no gaps once a price is known.
            var next = current.map { $0.day.advanced(by: 1) } ?? first
            if let open = current { daily.append(open) }
            current = nil
            guard let carried else { return }
            while next < day {
                daily.append(Day(day: next, low: carried, high: carried, close: carried))
                next = next.advanced(by: 1)
            }
        }
        for mark in marks {
            let day = HistoryDay.of(asOf: mark.at, state: state)
            guard day <= through else { break }
            let countsHere = counts(mark.price)
            if day >= first {
                changes.append(mark)
                implausible.append(!countsHere)
            }
            // The days follow the prices that count only: the price carried on is the last real one.
            guard countsHere else { continue }
            guard day >= first else {
                carried = mark.price
                continue
            }
            if current?.day != day {
                close(until: day)
                // A change at the day's first instant (every FuelWatch change, at 06:00) leaves the price carried in
                // never in effect that day.
                let open = mark.at > HistoryDay.start(of: day, state: state) ? carried ?? mark.price : mark.price
                current = Day(day: day, low: min(open, mark.price), high: max(open, mark.price), close: mark.price)
            } else {
                current!.low = min(current!.low, mark.price)
                current!.high = max(current!.high, mark.price)
                current!.close = mark.price
            }
            carried = mark.price
        }
        close(until: through.advanced(by: 1))
        self.changes = changes
        self.implausible = implausible
        self.daily = daily
    }
}

import Foundation

/// Which day a capture's prices describe, so each trend point is labelled by the day it is about.
///
/// - WA: the FuelWatch trading day (06:00 to 06:00 Perth). A capture between midnight and 06:00 still holds the
///   previous trading day's prices, so it never makes a point for the new calendar day.
/// - A provider that publishes late (VIC: 24 h, `dataDelay`) describes the day before its capture: the local day
///   containing the capture instant less the delay, less one second, so a capture at local midnight (VIC's
///   archive) belongs to the day that just ended. The newest price's date is no label: one change after midnight
///   would move a whole day's capture onto the next day.
/// - Everyone else: the local calendar day of the capture (the provider's `asOf`).
public enum HistoryDay {
    /// How far behind its capture a provider's data is.
    public static let dataDelay: [ProviderID: TimeInterval] = [.vic: 24 * 3_600]

    /// The label for a snapshot whose update did not say which day it describes: the day of its provider's
    /// `asOf` (already the data's own instant, so no delay applies), WA's trading day for WA.
    public static func of(asOf: Date, state: AustralianState) -> CalendarDay {
        state == .WA ? WATradingDay.tradingDay(containing: asOf) : state.day(containing: asOf)
    }

    /// The first instant of `day` in `state`'s calendar: 06:00 Perth for WA, local midnight elsewhere.
    public static func start(of day: CalendarDay, state: AustralianState) -> Date {
        state == .WA ? WATradingDay.start(of: day) : day.instant(hour: 0, in: state.zone)
    }

    /// The day a capture made at `instant` describes (adapters know the capture instant).
    public static func described(capturedAt instant: Date, provider: ProviderID, state: AustralianState) -> CalendarDay {
        if state == .WA { return WATradingDay.tradingDay(containing: instant) }
        guard let delay = dataDelay[provider], delay > 0 else { return state.day(containing: instant) }
        return state.day(containing: instant.addingTimeInterval(-delay - 1))
    }
}

import Foundation

extension AustralianState {
    /// The state's time zone, created once per process (`timeZone` builds a new one on each call).
    public var zone: TimeZone { Self.zones[ordinal] }

    private static let zones: [TimeZone] = allCases.map(\.timeZone)

    /// The local calendar day containing `instant` in this state, e.g. the trend bucket of a price.
    public func day(containing instant: Date) -> CalendarDay {
        CalendarDay(containing: instant, in: zone)
    }
}

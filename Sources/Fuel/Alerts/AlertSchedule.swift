import Foundation

/// When a decision may be pushed: `immediate` now, or at the end of the alert's quiet hours; `daily` at the next `at`
/// in the device's zone, grouped with that day's other decisions of the alert into one summary.
public enum AlertSchedule {
    public static func delivery(of alert: WatchedAlert, decidedAt now: Date) -> (deliverAfter: Date?, summaryGroup: String?) {
        switch alert.definition.delivery {
        case .immediate:
            guard let quiet = alert.definition.quietHours else { return (nil, nil) }
            let at = quiet.deliveryTime(for: now, in: alert.zone)
            return (at == now ? nil : at, nil)
        case .daily(let at):
            let when = at.nextOccurrence(onOrAfter: now, in: alert.zone)
            return (when, "daily.a\(alert.id).\(CalendarDay(containing: when, in: alert.zone))")
        }
    }
}

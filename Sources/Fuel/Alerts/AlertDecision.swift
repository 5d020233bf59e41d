import Foundation

/// One notification the evaluator decided to send. `key` is unique per decision (alert, station, fuel and the
/// crossing or publication it answers), so deciding it twice writes one outbox row.
public struct AlertDecision: Sendable, Equatable {
    public var key: String
    /// What the phone collapses resends by: derived from `key`, so a resend after a crash shows once.
    public var collapseID: String
    public var alertID: Int64
    public var deviceID: Int64
    public var station: StationID
    public var fuel: FuelType
    public var price: PriceTenths
    public var title: String
    public var message: String
    /// Not before this instant (quiet hours, a daily summary); nil for now.
    public var deliverAfter: Date?
    /// Decisions sharing a group are sent as one summary push (a `daily` alert's day).
    public var summaryGroup: String?
    /// An immediate alert's quiet hours, kept for the sender: a push held past `deliverAfter` (the hourly limit, a
    /// relay's retry) may fall due inside them, and then waits for their end in the device's zone as it is then.
    public var quietHours: QuietHours?

    public init(
        key: String, alertID: Int64, deviceID: Int64, station: StationID, fuel: FuelType, price: PriceTenths, title: String,
        message: String, deliverAfter: Date? = nil, summaryGroup: String? = nil, quietHours: QuietHours? = nil
    ) {
        self.key = key
        self.collapseID = "petty-" + key
        self.alertID = alertID
        self.deviceID = deviceID
        self.station = station
        self.fuel = fuel
        self.price = price
        self.title = title
        self.message = message
        self.deliverAfter = deliverAfter
        self.summaryGroup = summaryGroup
        self.quietHours = quietHours
    }

    /// The key of a decision answering a price seen in snapshot `version`.
    static func key(alert: Int64, station: StationID, fuel: FuelType, version: UInt64) -> String {
        "a\(alert).s\(station.rawValue).\(fuel.rawValue).v\(version)"
    }
}

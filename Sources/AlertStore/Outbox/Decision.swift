import Foundation

/// One decision to notify: unique by `key` (alert, station, fuel and the crossing or publication it answers), so
/// deciding it again, after a crash or by a second evaluation of the same snapshot, writes nothing new.
public struct Decision: Sendable, Equatable {
    public var key: String
    public var deviceID: Int64
    public var alertID: Int64
    /// What the phone collapses resends by (APNs `collapse_id` / FCM `collapse_key`).
    public var collapseID: String
    /// The push's JSON (title, message, data).
    public var payload: String
    /// Not sent before this instant (quiet hours, a daily summary's time).
    public var deliverAfter: Date?

    public init(key: String, deviceID: Int64, alertID: Int64, collapseID: String, payload: String, deliverAfter: Date? = nil) {
        self.key = key
        self.deviceID = deviceID
        self.alertID = alertID
        self.collapseID = collapseID
        self.payload = payload
        self.deliverAfter = deliverAfter
    }
}

/// The state an alert keeps per station, written in the same transaction as the decisions it led to.
public struct AlertStationState: Sendable, Equatable {
    public var alertID: Int64
    public var stationID: Int
    /// `price_below`: armed until it fires; re-armed 1.0 c/L above the threshold.
    public var armed: Bool
    /// What the last notification said, in tenths: drops and rises are measured from it.
    public var lastNotifiedTenths: Int?
    /// `cheapest_changed` (station 0): the station that was cheapest when last notified.
    public var referenceStation: Int?

    public init(alertID: Int64, stationID: Int, armed: Bool, lastNotifiedTenths: Int?, referenceStation: Int? = nil) {
        self.alertID = alertID
        self.stationID = stationID
        self.armed = armed
        self.lastNotifiedTenths = lastNotifiedTenths
        self.referenceStation = referenceStation
    }
}

/// A notification as stored in the outbox.
public struct OutboxEntry: Sendable, Equatable {
    public var id: Int64
    public var deviceID: Int64
    public var alertID: Int64?
    public var key: String
    public var collapseID: String
    public var payload: String
    public var attempts: Int
    public var sent: Bool
    public var sentAt: Date? = nil
}

import Foundation
import Fuel

/// What the device and alert routes need from storage. API knows no database: App implements this over
/// AlertStore. Calls are synchronous, made from the server's off-loop workers (the device routes run off the event
/// loops); an implementation bounds each call by a deadline and throws `AlertsBackendError.unavailable` when the database does not answer in time.
package protocol AlertsBackend: Sendable {
    /// Nil when requests can be served; otherwise why not (a 503's reason, safe to show anyone).
    var unavailableReason: String? { get }

    func registerDevice(_ registration: DeviceRegistration) throws -> RegisteredDevice
    /// Whether `secret` is device `id`'s secret. An unknown id and a wrong secret cost the same work.
    func authenticate(deviceID: Int64, secret: String) throws -> Bool
    func updateDevice(id: Int64, pushToken: String?, timeZone: String?) throws
    func deleteDevice(id: Int64) throws

    func alerts(deviceID: Int64) throws -> [AlertRecord]
    func alert(deviceID: Int64, alertID: Int64) throws -> AlertRecord?
    /// Throws `.limitReached` when the device already has `AlertDefinition.maxPerDevice` alerts. With an
    /// `idempotencyKey` an earlier create used, answers the alert that create made (`replayed`) and makes none;
    /// throws `.idempotencyKeyReused` when that alert's definition is another.
    func createAlert(deviceID: Int64, _ definition: AlertDefinition, idempotencyKey: IdempotencyKey?) throws -> (alert: AlertRecord, replayed: Bool)
    func replaceAlert(deviceID: Int64, alertID: Int64, _ definition: AlertDefinition) throws -> AlertRecord?
    func deleteAlert(deviceID: Int64, alertID: Int64) throws -> Bool

    /// The device's notifications sent after the one with id `afterID`, most recently sent first, at most 100.
    func notifications(deviceID: Int64, afterID: Int64) throws -> [NotificationRecord]
}

package enum AlertsBackendError: Error, Equatable, Sendable {
    /// The database is not ready or did not answer; `reason` is for anyone to read (no error texts).
    case unavailable(String)
    case limitReached(Int)
    /// The idempotency key made alert `alertID`, whose definition is not the one sent again.
    case idempotencyKeyReused(alertID: Int64)
}

package struct DeviceRegistration: Sendable, Equatable {
    package enum Platform: String, Sendable, CaseIterable {
        case ios, android
    }

    package var platform: Platform
    package var pushToken: String
    package var timeZone: String
}

package struct RegisteredDevice: Sendable, Equatable {
    package var id: Int64
    /// Shown once, in the 201; only its hash is kept.
    package var secret: String

    package init(id: Int64, secret: String) {
        self.id = id
        self.secret = secret
    }
}

package struct AlertRecord: Sendable, Equatable {
    package var id: Int64
    package var definition: AlertDefinition
    package var createdAt: Date?

    package init(id: Int64, definition: AlertDefinition, createdAt: Date?) {
        self.id = id
        self.definition = definition
        self.createdAt = createdAt
    }
}

package struct NotificationRecord: Sendable, Equatable {
    package var id: Int64
    package var alertID: Int64?
    /// The push's JSON object as decided (title, message, data), passed through.
    package var payload: String
    package var sentAt: Date?

    package init(id: Int64, alertID: Int64?, payload: String, sentAt: Date?) {
        self.id = id
        self.alertID = alertID
        self.payload = payload
        self.sentAt = sentAt
    }
}

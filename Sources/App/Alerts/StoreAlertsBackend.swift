import API
import AlertStore
import Foundation
import Fuel
import HTTP
import Postgres

/// The device and alert routes' storage: AlertStore's repositories over the runtime's client, each call bounded by
/// `deadline`. Database failures become `AlertsBackendError.unavailable` with a reason anyone may read; the error
/// itself goes to the log and (as "unreachable") to `/health`.
struct StoreAlertsBackend: AlertsBackend {
    let runtime: AlertsRuntime
    let logger: Logger
    /// How many handlers may wait on the database at once.
    let gate: BlockingBridge.Gate
    /// Longer than one query on a healthy server (about a millisecond on a local socket), shorter than a client's
    /// patience, and short enough that a worker held by a slow database is back soon.
    var deadline: Double = 2

    var unavailableReason: String? { runtime.unavailableReason }

    private var devices: DeviceRepository { DeviceRepository(client: runtime.client) }
    private var alertRows: AlertRepository { AlertRepository(client: runtime.client) }
    private var outbox: OutboxRepository { OutboxRepository(client: runtime.client) }

    func registerDevice(_ registration: DeviceRegistration) throws -> RegisteredDevice {
        let devices = self.devices
        let platform = Device.Platform(rawValue: registration.platform.rawValue) ?? .ios
        let (device, secret) = try call("register a device") {
            try await devices.create(platform: platform, pushToken: registration.pushToken, timeZone: registration.timeZone)
        }
        return RegisteredDevice(id: device.id, secret: secret.text)
    }

    func authenticate(deviceID: Int64, secret: String) throws -> Bool {
        let devices = self.devices
        return try call("authenticate a device") { try await devices.authenticate(id: deviceID, secret: secret) != nil }
    }

    func updateDevice(id: Int64, pushToken: String?, timeZone: String?) throws {
        let devices = self.devices
        _ = try call("update a device") { try await devices.update(id: id, pushToken: pushToken, timeZone: timeZone) }
    }

    func deleteDevice(id: Int64) throws {
        let devices = self.devices
        _ = try call("delete a device") { try await devices.delete(id: id) }
    }

    func alerts(deviceID: Int64) throws -> [AlertRecord] {
        let rows = alertRows
        return try call("list alerts") { try await rows.list(deviceID: deviceID) }.map(Self.record)
    }

    func alert(deviceID: Int64, alertID: Int64) throws -> AlertRecord? {
        let rows = alertRows
        return try call("read an alert") { try await rows.get(deviceID: deviceID, alertID: alertID) }.map(Self.record)
    }

    func createAlert(deviceID: Int64, _ definition: AlertDefinition, idempotencyKey: IdempotencyKey?) throws -> (alert: AlertRecord, replayed: Bool) {
        let rows = alertRows
        do {
            let created = try call("create an alert") { () async throws -> (alert: StoredAlert, replayed: Bool)? in
                guard let key = idempotencyKey else { return try await rows.create(deviceID: deviceID, definition).map { ($0, false) } }
                return try await rows.create(deviceID: deviceID, definition, idempotencyKey: key.text)
            }
            // Nil: the device was deleted between its authentication and this insert.
            guard let created else { throw AlertsBackendError.unavailable("this device no longer exists") }
            return (Self.record(created.alert), created.replayed)
        } catch AlertStoreError.alertLimitReached(let limit) {
            throw AlertsBackendError.limitReached(limit)
        } catch AlertStoreError.idempotencyKeyReused(let alertID) {
            throw AlertsBackendError.idempotencyKeyReused(alertID: alertID)
        }
    }

    func replaceAlert(deviceID: Int64, alertID: Int64, _ definition: AlertDefinition) throws -> AlertRecord? {
        let rows = alertRows
        return try call("replace an alert") { try await rows.replace(deviceID: deviceID, alertID: alertID, definition) }.map(Self.record)
    }

    func deleteAlert(deviceID: Int64, alertID: Int64) throws -> Bool {
        let rows = alertRows
        return try call("delete an alert") { try await rows.delete(deviceID: deviceID, alertID: alertID) }
    }

    func notifications(deviceID: Int64, afterID: Int64) throws -> [NotificationRecord] {
        let outbox = self.outbox
        return try call("read notifications") { try await outbox.history(deviceID: deviceID, afterID: afterID) }.map { entry in
            NotificationRecord(id: entry.id, alertID: entry.alertID, payload: entry.payload, sentAt: entry.sentAt)
        }
    }

    static func record(_ stored: StoredAlert) -> AlertRecord {
        AlertRecord(id: stored.id, definition: stored.definition, createdAt: stored.createdAt)
    }

    /// `work` on the database within the deadline. A connection failure marks the database unreachable and is a
    /// 503; so is a request past its deadline, which marks nothing: one slow statement (waiting on a lock, say) is
    /// not an unreachable database, and marking it so would turn every alert route and the evaluator away until the
    /// next check. A server error (a bug, a constraint the validation missed) is logged and a 503 too, its text never
    /// shown. `AlertStoreError.alertLimitReached` passes through for the caller.
    private func call<T: Sendable>(_ what: String, _ work: @escaping @Sendable () async throws -> T) throws -> T {
        do {
            let value = try BlockingBridge.run(deadline: deadline, gate: gate, work)
            runtime.recordReachable()
            return value
        } catch let error as AlertStoreError {
            switch error {
            case .alertLimitReached, .idempotencyKeyReused: throw error
            default: break
            }
            logger.error("alerts: could not \(what): \(error)")
            throw AlertsBackendError.unavailable("price alerts could not be stored: try again shortly")
        } catch is BlockingBridge.Busy {
            logger.warning("alerts: refused to \(what): \(gate.limit) request(s) already waiting on the database")
            throw AlertsBackendError.unavailable("price alerts are busy: try again shortly")
        } catch is BlockingBridge.TimedOut {
            logger.error("alerts: could not \(what): no answer from the database within \(deadline) s")
            throw AlertsBackendError.unavailable("price alerts are unavailable: the database did not answer in time; try again shortly")
        } catch let error as PostgresError {
            if case .server = error {
                logger.error("alerts: could not \(what): \(error)")
                throw AlertsBackendError.unavailable("price alerts could not be stored: try again shortly")
            }
            runtime.recordUnreachable(error)
            logger.error("alerts: could not \(what): \(error)")
            throw AlertsBackendError.unavailable("price alerts are unavailable: the database cannot be reached; try again shortly")
        }
    }
}

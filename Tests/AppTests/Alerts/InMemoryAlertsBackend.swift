import Foundation
import Fuel
import Synchronization
@testable import API

/// The alert routes' storage in memory, for request validation and authorization without PostgreSQL. Counts every
/// write, so a test can tell that a refused request wrote nothing.
final class InMemoryAlertsBackend: AlertsBackend {
    struct Store {
        var devices: [Int64: (secret: String, registration: DeviceRegistration)] = [:]
        var alerts: [Int64: (device: Int64, record: AlertRecord)] = [:]
        var nextID: Int64 = 1
        var writes = 0
        var authentications = 0
        var keys: [KeyOfDevice: Int64] = [:]
    }

    struct KeyOfDevice: Hashable {
        var device: Int64
        var key: String
    }

    let store = Mutex(Store())
    var unavailableReason: String? { nil }
    var writes: Int { store.withLock { $0.writes } }
    var authentications: Int { store.withLock { $0.authentications } }

    func registerDevice(_ registration: DeviceRegistration) throws -> RegisteredDevice {
        store.withLock { store in
            let id = store.nextID
            store.nextID += 1
            store.writes += 1
            let secret = String(repeating: String(id % 10), count: 64)
            store.devices[id] = (secret, registration)
            return RegisteredDevice(id: id, secret: secret)
        }
    }

    func authenticate(deviceID: Int64, secret: String) throws -> Bool {
        store.withLock { store in
            store.authentications += 1
            return store.devices[deviceID]?.secret == secret
        }
    }

    func updateDevice(id: Int64, pushToken: String?, timeZone: String?) throws {
        store.withLock { $0.writes += 1 }
    }

    func deleteDevice(id: Int64) throws {
        store.withLock { store in
            store.writes += 1
            store.devices[id] = nil
            store.alerts = store.alerts.filter { $0.value.device != id }
        }
    }

    func alerts(deviceID: Int64) throws -> [AlertRecord] {
        store.withLock { $0.alerts.values.filter { $0.device == deviceID }.map(\.record).sorted { $0.id < $1.id } }
    }

    func alert(deviceID: Int64, alertID: Int64) throws -> AlertRecord? {
        store.withLock { $0.alerts[alertID].flatMap { $0.device == deviceID ? $0.record : nil } }
    }

    func createAlert(deviceID: Int64, _ definition: AlertDefinition, idempotencyKey: IdempotencyKey?) throws -> (alert: AlertRecord, replayed: Bool) {
        try store.withLock { store in
            if let idempotencyKey, let earlier = store.keys[KeyOfDevice(device: deviceID, key: idempotencyKey.text)].flatMap({ store.alerts[$0] }) {
                guard earlier.record.definition == definition else { throw AlertsBackendError.idempotencyKeyReused(alertID: earlier.record.id) }
                return (earlier.record, true)
            }
            guard store.alerts.values.filter({ $0.device == deviceID }).count < AlertDefinition.maxPerDevice else {
                throw AlertsBackendError.limitReached(AlertDefinition.maxPerDevice)
            }
            let record = AlertRecord(id: store.nextID, definition: definition, createdAt: Date(timeIntervalSince1970: 1_767_225_600))
            store.nextID += 1
            store.writes += 1
            store.alerts[record.id] = (deviceID, record)
            if let idempotencyKey { store.keys[KeyOfDevice(device: deviceID, key: idempotencyKey.text)] = record.id }
            return (record, false)
        }
    }

    func replaceAlert(deviceID: Int64, alertID: Int64, _ definition: AlertDefinition) throws -> AlertRecord? {
        store.withLock { store in
            guard let existing = store.alerts[alertID], existing.device == deviceID else { return nil }
            store.writes += 1
            var record = existing.record
            record.definition = definition
            store.alerts[alertID] = (deviceID, record)
            return record
        }
    }

    func deleteAlert(deviceID: Int64, alertID: Int64) throws -> Bool {
        store.withLock { store in
            guard let existing = store.alerts[alertID], existing.device == deviceID else { return false }
            store.writes += 1
            store.alerts[alertID] = nil
            return true
        }
    }

    func notifications(deviceID: Int64, afterID: Int64) throws -> [NotificationRecord] { [] }
}

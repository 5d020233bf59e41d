import Fuel
import HTTP

/// `/v1/devices...`: a phone registers, proves itself with its secret on every later call, and manages its alerts
/// and reads its notification inbox. Answers are never cached (`no-store`). Without a database every route is a
/// 503 saying so; while the database is starting or unreachable, a 503 saying that.
struct DevicesController: RouteCollection {
    let context: PettyContext
    /// Nil when `PETTY_DATABASE_URL` is not set.
    let backend: (any AlertsBackend)?

    static let notConfigured = "price alerts need a database: set PETTY_DATABASE_URL"
    static let maxDeviceBodyBytes = 16 * 1024

    /// Every route waits on the database, so each runs off the event loops (`runsOffLoop`): a slow database
    /// holds worker threads, never a loop serving the other routes.
    func boot(routes: RoutesBuilder) throws {
        routes.on(.POST, "v1", "devices", runsOffLoop: true, use: guarded(register))
        routes.on(.PUT, "v1", "devices", ":id", runsOffLoop: true, use: guarded(updateDevice))
        routes.on(.DELETE, "v1", "devices", ":id", runsOffLoop: true, use: guarded(deleteDevice))
        routes.on(.GET, "v1", "devices", ":id", "alerts", runsOffLoop: true, use: guarded(listAlerts))
        routes.on(.POST, "v1", "devices", ":id", "alerts", runsOffLoop: true, use: guarded(createAlert))
        routes.on(.GET, "v1", "devices", ":id", "alerts", ":alert_id", runsOffLoop: true, use: guarded(getAlert))
        routes.on(.PUT, "v1", "devices", ":id", "alerts", ":alert_id", runsOffLoop: true, use: guarded(replaceAlert))
        routes.on(.DELETE, "v1", "devices", ":id", "alerts", ":alert_id", runsOffLoop: true, use: guarded(deleteAlert))
        routes.on(.GET, "v1", "devices", ":id", "notifications", runsOffLoop: true, use: guarded(notifications))
    }

    // MARK: Devices

    func register(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let params = try DeviceRegistrationParameters(body(of: request, operation: DeviceRegistrationParameters.operation, types: DeviceRegistrationParameters.types))
        let device = try backend.registerDevice(params.registration)
        var response = DeviceBodies.response(HTTPStatus(code: 201)) { DeviceBodies.device(device, &$0) }
        response.headers.add(name: "Location", value: "/v1/devices/\(device.id)")
        return response
    }

    func updateDevice(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        let params = try DeviceUpdateParameters(body(of: request, operation: DeviceUpdateParameters.operation, types: DeviceUpdateParameters.types))
        try backend.updateDevice(id: id, pushToken: params.pushToken, timeZone: params.timeZone)
        return Self.noContent()
    }

    /// The app's "delete my data": the device, its alerts and its notification history.
    func deleteDevice(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        try Self.noQuery(request, "DELETE /v1/devices/{id}")
        try backend.deleteDevice(id: id)
        return Self.noContent()
    }

    // MARK: Alerts

    func listAlerts(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        _ = try DeviceAlertsParameters(request)
        let alerts = try backend.alerts(deviceID: id)
        return DeviceBodies.response { DeviceBodies.alerts(alerts, &$0) }
    }

    func createAlert(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        let definition = try alertDefinition(request, operation: AlertParameters.operation)
        let key = try IdempotencyKey.of(request)
        let created: (alert: AlertRecord, replayed: Bool)
        do { created = try backend.createAlert(deviceID: id, definition, idempotencyKey: key) } catch AlertsBackendError.limitReached(let limit) {
            throw Abort(HTTPStatus(code: 409), reason: "this device already has \(limit) alerts, the most it may have: delete one first",
                        headers: ["Cache-Control": "no-store"])
        } catch AlertsBackendError.idempotencyKeyReused(let alertID) {
            throw Abort(HTTPStatus(code: 422), reason: "\(IdempotencyKey.header) was already used to create alert \(alertID), which asks something else: send a new key for a new alert",
                        headers: ["Cache-Control": "no-store"])
        }
        // A replay answers as the create it repeats did (RFC draft: the same status), and says it is one.
        var response = DeviceBodies.response(HTTPStatus(code: 201)) { DeviceBodies.alert(created.alert, &$0) }
        response.headers.add(name: "Location", value: "/v1/devices/\(id)/alerts/\(created.alert.id)")
        if created.replayed { response.headers.add(name: "Idempotent-Replayed", value: "true") }
        return response
    }

    func getAlert(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        _ = try DeviceAlertParameters(request)
        guard let alertID = Self.alertID(request), let alert = try backend.alert(deviceID: id, alertID: alertID) else { throw Self.noSuchAlert() }
        return DeviceBodies.response { DeviceBodies.alert(alert, &$0) }
    }

    func replaceAlert(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        guard let alertID = Self.alertID(request) else { throw Self.noSuchAlert() }
        let definition = try alertDefinition(request, operation: "PUT /v1/devices/{id}/alerts/{alert_id}")
        guard let alert = try backend.replaceAlert(deviceID: id, alertID: alertID, definition) else { throw Self.noSuchAlert() }
        return DeviceBodies.response { DeviceBodies.alert(alert, &$0) }
    }

    func deleteAlert(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        try Self.noQuery(request, "DELETE /v1/devices/{id}/alerts/{alert_id}")
        guard let alertID = Self.alertID(request), try backend.deleteAlert(deviceID: id, alertID: alertID) else { throw Self.noSuchAlert() }
        return Self.noContent()
    }

    func notifications(_ request: Request, _ backend: any AlertsBackend) throws -> Response {
        let id = try DeviceAuthorization.check(request, backend: backend)
        let params = try NotificationsParameters(request)
        let entries = try backend.notifications(deviceID: id, afterID: params.afterID)
        return DeviceBodies.response { DeviceBodies.notifications(entries, shareBase: context.publicURL, &$0) }
    }

    // MARK: Shared steps

    /// Every handler behind the same gate: 503 without a ready database, and `no-store` on every answer, errors too.
    func guarded(_ handler: @escaping @Sendable (Request, any AlertsBackend) throws -> Response) -> @Sendable (Request) throws -> Response {
        let backend = self.backend
        return { request in
            do {
                guard let backend else { throw Abort(.serviceUnavailable, reason: Self.notConfigured) }
                if let reason = backend.unavailableReason { throw Self.unavailable(reason) }
                return try handler(request, backend)
            } catch let abort as Abort {
                var abort = abort
                if !abort.headers.contains(name: "Cache-Control") { abort.headers.add(name: "Cache-Control", value: "no-store") }
                throw abort
            } catch AlertsBackendError.unavailable(let reason) {
                throw Self.unavailable(reason)
            }
        }
    }

    static func unavailable(_ reason: String) -> Abort {
        Abort(.serviceUnavailable, reason: reason, headers: ["Retry-After": "5", "Cache-Control": "no-store"])
    }

    /// A JSON body read as the endpoint's declared fields; no query string beside it.
    func body<Name: ParameterName>(
        of request: Request, operation: String, objects: Set<String> = [], types: [String: JSONParameters.FieldType]
    ) throws -> QueryReader<Name> {
        try Self.noQuery(request, operation)
        let fields = try JSONParameters.query(of: request, maxBytes: Self.maxDeviceBodyBytes, objects: objects, types: types)
        return try QueryReader(fields, operation: operation)
    }

    func alertDefinition(_ request: Request, operation: String) throws -> AlertDefinition {
        let params = try AlertParameters(body(of: request, operation: operation, objects: AlertParameters.objects, types: AlertParameters.types))
        try AlertStations.check(params.definition, in: context.store.current.snapshot)
        return params.definition
    }

    static func noQuery(_ request: Request, _ operation: String) throws {
        guard request.query.isEmpty else {
            throw Abort(.badRequest, reason: "\(operation) takes no query parameters; its fields go in the JSON body")
        }
    }

    static func alertID(_ request: Request) -> Int64? {
        guard let text = request.parameters.get("alert_id"), text.utf8.count <= 18, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }) else { return nil }
        return Int64(text)
    }

    /// Only ever said to the device itself, after its secret was checked: its own alert ids are no secret to it.
    static func noSuchAlert() -> Abort {
        Abort(.notFound, reason: "this device has no alert with that id")
    }

    static func noContent() -> Response {
        Response(status: .noContent, headers: ["Cache-Control": "no-store"])
    }
}

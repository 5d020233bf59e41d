import AlertStore
import Foundation
import LivePostgres
import Postgres
import Testing
@testable import App

/// The device routes' storage against a real PostgreSQL (run by Tests/postgres/run.sh, skipped by `swift test`).
@Suite(.enabled(if: AlertsLiveSettings.isConfigured, AlertsLiveSettings.skipReason), .serialized)
struct AlertsLiveDeadlineTests {
    /// A statement waiting on a row lock past the request's deadline is that request's 503, not an unreachable
    /// database: the other routes, and the evaluator and sender gated on readiness, carry on.
    @Test func aRequestPastItsDeadlineDoesNotMarkTheDatabaseUnreachable() async throws {
        try await LivePostgres.withFreshDatabase(prefix: "alerts_deadline") { database, _ in
            let runtime = AlertsRuntime(configuration: database, logger: AppTestSupport.quietLogger(), checkInterval: 30)
            let running = Task { try await runtime.run() }
            defer { running.cancel() }
            #expect(await eventually(seconds: 20) { runtime.isReady })
            let (device, _) = try await DeviceRepository(client: runtime.client).create(platform: .ios, pushToken: "t", timeZone: "Australia/Perth")
            let backend = StoreAlertsBackend(runtime: runtime, logger: AppTestSupport.quietLogger(), gate: BlockingBridge.Gate(limit: 2), deadline: 0.3)
            let locker = PostgresClient(configuration: database, maxConnections: 1)
            defer { locker.shutdown() }
            let refused: Error? = try await locker.withTransaction { connection in
                _ = try await connection.query("SELECT id FROM devices WHERE id = $1 FOR UPDATE", [.text(String(device.id))])
                // The backend blocks its caller (the server's off-loop workers): called here from a thread of its own.
                return await withCheckedContinuation { continuation in
                    DispatchQueue.global().async {
                        do {
                            try backend.updateDevice(id: device.id, pushToken: "u", timeZone: nil)
                            continuation.resume(returning: nil)
                        } catch {
                            continuation.resume(returning: error)
                        }
                    }
                }
            }
            #expect(String(describing: refused).contains("did not answer in time"), "\(String(describing: refused))")
            #expect(runtime.isReady && runtime.unavailableReason == nil)
        }
    }
}

import API
import AlertStore
import Foundation
import HTTP
import Postgres
import Synchronization

/// Price alerts' side of the database: connects and migrates in the background at start (retrying with a capped
/// backoff, so the server serves everything else at once), then checks the connection every few seconds. Until
/// the schema is in place, and while the database is unreachable, `unavailableReason` says why and the alert
/// routes answer 503 with it. Other alert services take `client` once `isReady`.
final class AlertsRuntime: Service, Sendable {
    let name = "alerts database"
    let client: PostgresClient
    let logger: Logger
    let backoff: ReconnectBackoff
    let checkInterval: Double
    private let state = Mutex(State())

    struct State {
        var phase = Phase.connecting
        var schemaVersion: Int?
        /// The last failure's text, logged and shown to `/health`'s internal audience only.
        var lastError: String?
    }

    enum Phase: Equatable {
        case connecting
        case ready
        case unreachable
    }

    init(configuration: PostgresConfiguration, logger: Logger, backoff: ReconnectBackoff = ReconnectBackoff(base: 0.5, cap: 30),
         checkInterval: Double = 5) {
        self.logger = logger
        self.backoff = backoff
        self.checkInterval = checkInterval
        let log = logger
        client = PostgresClient(configuration: configuration, maxConnections: 4, log: { log.notice($0) })
    }

    /// The client once the schema is migrated; nil before (or without a database, where there is no runtime).
    var readyClient: PostgresClient? { isReady ? client : nil }

    var isReady: Bool { state.withLock { $0.phase == .ready } }

    /// Nil when alert requests can be served; otherwise a 503's reason (no error texts: anyone may read it).
    var unavailableReason: String? {
        switch state.withLock({ $0.phase }) {
        case .ready: nil
        case .connecting: "price alerts are starting: the database is not ready yet; try again shortly"
        case .unreachable: "price alerts are unavailable: the database cannot be reached; try again shortly"
        }
    }

    /// The status and database fields of `AlertsHealth`; the evaluator and sender fill the rest.
    func fill(_ health: inout AlertsHealth) {
        let current = state.withLock { $0 }
        switch current.phase {
        case .ready:
            health.status = .ok
            health.database = "connected"
        case .connecting:
            health.status = .starting
            health.database = current.lastError.map { "connecting: \($0)" } ?? "connecting"
        case .unreachable:
            health.status = current.schemaVersion == nil ? .starting : .degraded
            health.database = "unreachable: \(current.lastError ?? "no answer")"
        }
    }

    // MARK: Running

    func run() async throws {
        defer { client.shutdown() }
        let migrator = Migrator(log: { [logger] in logger.notice($0) })
        var failures = 0
        while true {
            do {
                let version = try await migrator.migrate(client)
                state.withLock { $0 = State(phase: .ready, schemaVersion: version, lastError: nil) }
                logger.notice("alerts: database ready (\(client.configuration), schema v\(version))")
                break
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                failures += 1
                let delay = backoff.delay(afterFailures: failures)
                let text = Self.describe(error)
                state.withLock { $0.lastError = text }
                logger.error("alerts: cannot prepare the database (\(client.configuration)): \(text); retrying in \(delay) s")
                try await Task.sleep(nanoseconds: UInt64(delay * 1e9))
            }
        }
        while true {
            try await Task.sleep(nanoseconds: UInt64(checkInterval * 1e9))
            do {
                _ = try await client.query("SELECT 1", timeout: min(checkInterval, 5))
                recordReachable()
            } catch is CancellationError {
                throw CancellationError()
            } catch {
                recordUnreachable(error)
            }
        }
    }

    /// A request or the periodic check reached the database.
    func recordReachable() {
        let recovered = state.withLock { state -> Bool in
            guard state.phase == .unreachable, state.schemaVersion != nil else { return false }
            state.phase = .ready
            state.lastError = nil
            return true
        }
        if recovered { logger.notice("alerts: the database answers again") }
    }

    /// A request or the periodic check could not reach the database (server errors such as a constraint are not this).
    func recordUnreachable(_ error: any Error) {
        let text = Self.describe(error)
        let wasReady = state.withLock { state -> Bool in
            let wasReady = state.phase == .ready
            if wasReady { state.phase = .unreachable }
            state.lastError = text
            return wasReady
        }
        if wasReady { logger.error("alerts: the database cannot be reached: \(text)") }
    }

    static func describe(_ error: any Error) -> String {
        (error as? PostgresError)?.description ?? (error as? AlertStoreError)?.description ?? "\(error)"
    }
}

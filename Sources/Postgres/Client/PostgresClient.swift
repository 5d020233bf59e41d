import Synchronization
import Clocks

/// A small pool of connections to one database. A connection that broke is dropped and a new one made, with a capped
/// backoff between failed attempts shared by every caller; an idle connection the server closed (a restart,
/// `pg_terminate_backend`) is noticed when it is next taken and replaced before the query is sent.
public final class PostgresClient: Sendable {
    public let configuration: PostgresConfiguration
    public let maxConnections: Int
    public let backoff: ReconnectBackoff
    let log: @Sendable (String) -> Void
    private let state = Mutex(PoolState())

    struct PoolState {
        var idle: [PostgresConnection] = []
        /// Idle, lent out, or being connected.
        var open = 0
        var consecutiveFailures = 0
        var nextAttemptAt = 0.0
        var lastError: PostgresError?
        var shutDown = false
    }

    public init(
        configuration: PostgresConfiguration, maxConnections: Int = 4, backoff: ReconnectBackoff = ReconnectBackoff(),
        log: @escaping @Sendable (String) -> Void = { _ in }
    ) {
        self.configuration = configuration
        self.maxConnections = max(1, maxConnections)
        self.backoff = backoff
        self.log = log
    }

    /// One statement on any free connection; see `PostgresConnection.query`.
    public func query(_ sql: String, _ parameters: [PostgresValue] = [], timeout: Double? = nil) async throws -> PostgresRows {
        try await withConnection { try await $0.query(sql, parameters, timeout: timeout) }
    }

    /// Lends a connection for `body`; it returns to the pool afterwards unless it broke or was left inside a transaction.
    public func withConnection<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        let connection = try await acquire()
        do {
            let result = try await body(connection)
            release(connection)
            return result
        } catch {
            release(connection)
            throw error
        }
    }

    /// `body` inside BEGIN ... COMMIT on one connection; any error thrown (by the server or by `body`) rolls it back.
    /// A transaction the server already failed is rolled back and reported, never committed by accident.
    public func withTransaction<T: Sendable>(_ body: (PostgresConnection) async throws -> T) async throws -> T {
        try await withConnection { connection in
            try await connection.execute("BEGIN")
            do {
                let result = try await body(connection)
                if connection.transactionStatus == .failedTransaction {
                    throw PostgresError.server(PostgresServerError(fields: [
                        UInt8(ascii: "V"): "ERROR", UInt8(ascii: "C"): "25P02",
                        UInt8(ascii: "M"): "the transaction failed earlier and was rolled back",
                    ]))
                }
                try await connection.execute("COMMIT")
                return result
            } catch {
                if !connection.isClosed { try? await connection.execute("ROLLBACK") }
                throw error
            }
        }
    }

    /// Closes the idle connections; lent ones close when they come back.
    public func shutdown() {
        let idle = state.withLock { state in
            state.shutDown = true
            let idle = state.idle
            state.idle = []
            state.open -= idle.count
            return idle
        }
        for connection in idle { connection.close() }
    }

    // MARK: - Lending

    private enum Step {
        case reuse(PostgresConnection)
        case connect(notBefore: Double, lastError: PostgresError?)
        case wait
        case shutDown
    }

    func acquire() async throws -> PostgresConnection {
        let deadline = MonotonicClock.seconds() + configuration.connectTimeout
        while true {
            let step = state.withLock { state -> Step in
                if state.shutDown { return .shutDown }
                if let connection = state.idle.popLast() { return .reuse(connection) }
                guard state.open < maxConnections else { return .wait }
                state.open += 1
                return .connect(notBefore: state.nextAttemptAt, lastError: state.lastError)
            }
            switch step {
            case .shutDown:
                throw PostgresError.connection("the client is shut down")
            case .reuse(let connection):
                if connection.isUsableWhenIdle() { return connection }
                state.withLock { $0.open -= 1 }
                log("postgres: an idle connection was closed by the server; replacing it")
            case .wait:
                guard MonotonicClock.seconds() < deadline else {
                    throw PostgresError.connection("all \(maxConnections) connections stayed busy for \(configuration.connectTimeout) s")
                }
                try await Task.sleep(nanoseconds: 5_000_000)
            case .connect(let notBefore, let lastError):
                let now = MonotonicClock.seconds()
                if notBefore > now {
                    guard notBefore < deadline else {
                        state.withLock { $0.open -= 1 }
                        throw lastError ?? PostgresError.connection("the database is unavailable")
                    }
                    try await Task.sleep(nanoseconds: UInt64((notBefore - now) * 1e9))
                }
                do {
                    let connection = try await PostgresConnection.connect(configuration, log: log)
                    let recovered = state.withLock { state in
                        defer { state.consecutiveFailures = 0; state.nextAttemptAt = 0; state.lastError = nil }
                        return state.consecutiveFailures > 0
                    }
                    if recovered { log("postgres: connected again to \(configuration)") }
                    return connection
                } catch {
                    let failure = error as? PostgresError ?? .connection("\(error)")
                    let delay = state.withLock { state in
                        state.open -= 1
                        state.consecutiveFailures += 1
                        let delay = backoff.delay(afterFailures: state.consecutiveFailures)
                        state.nextAttemptAt = MonotonicClock.seconds() + delay
                        state.lastError = failure
                        return delay
                    }
                    log("postgres: cannot connect to \(configuration): \(failure); next attempt in \(delay) s")
                    switch failure {
                    case .authentication, .configuration, .server: throw failure
                    default: if MonotonicClock.seconds() + delay >= deadline { throw failure }
                    }
                }
            }
        }
    }

    func release(_ connection: PostgresConnection) {
        let keep = !connection.isClosed && connection.transactionStatus == .idle
        if !keep { connection.close() }
        let closeNow = state.withLock { state -> Bool in
            if keep && !state.shutDown {
                state.idle.append(connection)
                return false
            }
            state.open -= 1
            return keep
        }
        if closeNow { connection.close() }
    }
}

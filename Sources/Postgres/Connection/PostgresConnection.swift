import Dispatch
import Clocks

/// One session with the server: a state machine over the protocol's messages on a blocking-with-deadline socket.
/// A connection is used by one caller at a time (the client hands it out exclusively); its socket work runs on a
/// Dispatch thread, never on Swift's cooperative pool. Any I/O failure, protocol surprise, FATAL error or missed
/// deadline closes it for good: a broken connection is replaced, never repaired.
public final class PostgresConnection: @unchecked Sendable {
    public let configuration: PostgresConfiguration
    let log: @Sendable (String) -> Void
    private var socket: PostgresSocket?
    private var decoder = BackendMessageDecoder()
    private var secretKey: Int32 = 0
    /// The server process serving this session (what `pg_backend_pid()` answers).
    public private(set) var processID: Int32 = 0
    public private(set) var transactionStatus: PostgresTransactionStatus = .idle
    private var pendingNotifications: [PostgresNotification] = []
    private var statements = PreparedStatements()

    public var isClosed: Bool { socket == nil }

    private init(configuration: PostgresConfiguration, log: @escaping @Sendable (String) -> Void) {
        self.configuration = configuration
        self.log = log
    }

    /// Connects and logs in within the configuration's connect timeout.
    public static func connect(_ configuration: PostgresConfiguration, log: @escaping @Sendable (String) -> Void = { _ in }) async throws -> PostgresConnection {
        let connection = PostgresConnection(configuration: configuration, log: log)
        try await offload { try connection.blockingStartup(deadline: MonotonicClock.seconds() + configuration.connectTimeout) }
        return connection
    }

    /// One statement through the extended protocol (Parse, Bind, Describe, Execute, Sync), its values bound as
    /// text parameters `$1`, `$2`...; a server error is thrown as `.server` after the session is ready again.
    /// The statement is parsed once per session and bound by name after that (`PreparedStatements`).
    public func query(_ sql: String, _ parameters: [PostgresValue] = [], timeout: Double? = nil) async throws -> PostgresRows {
        let seconds = timeout ?? configuration.queryTimeout
        return try await offload { try self.blockingQuery(sql, parameters, timeout: seconds) }
    }

    /// Statements without parameters (DDL, BEGIN/COMMIT, LISTEN) through the simple protocol; several may be given
    /// separated by semicolons. Never pass values here: they go through `query` as parameters.
    public func execute(_ script: String, timeout: Double? = nil) async throws {
        let seconds = timeout ?? configuration.queryTimeout
        try await offload { try self.blockingSimpleQuery(script, timeout: seconds) }
    }

    /// Notifications received so far, waiting up to `seconds` for the first when there are none.
    public func notifications(waitingUpTo seconds: Double) async throws -> [PostgresNotification] {
        try await offload { try self.blockingNotifications(waitingUpTo: seconds) }
    }

    /// Sends Terminate and closes the socket.
    public func close() {
        guard let socket else { return }
        _ = try? socket.sendAll(FrontendMessage.terminate.bytes, deadline: MonotonicClock.seconds() + 0.5)
        socket.close()
        self.socket = nil
    }

    /// Whether an idle connection is still usable: consumes anything the server sent meanwhile (notifications, or the
    /// FATAL error and end of stream of a terminated backend) without waiting.
    func isUsableWhenIdle() -> Bool {
        guard let socket else { return false }
        do {
            while socket.isReadable() {
                guard let bytes = try socket.receive(deadline: MonotonicClock.seconds()) else { break }
                decoder.append(bytes)
                while let message = try decoder.next() {
                    if case .notification(let note) = message { pendingNotifications.append(note); continue }
                    if case .noticeResponse = message { continue }
                    if case .parameterStatus = message { continue }
                    if case .errorResponse(let error) = message { log("postgres: \(Self.logText(error))") }
                    fail()
                    return false
                }
            }
            return true
        } catch {
            fail()
            return false
        }
    }

    // MARK: - The blocking protocol

    private func blockingStartup(deadline: Double) throws {
        let socket = try PostgresSocket.connect(to: configuration.endpoint, deadline: deadline)
        self.socket = socket
        do {
            try send([.startup(user: configuration.user, database: configuration.database, applicationName: configuration.applicationName)], deadline: deadline)
            var scram: SCRAMClient?
            var serverProved = false
            while true {
                switch try nextMessage(deadline: deadline, what: "the login") {
                case .authentication(.ok):
                    // A server that skips SCRAM's last step never proved it knows the password: not the real server.
                    if scram != nil && !serverProved {
                        throw PostgresError.authentication("the server ended SCRAM without proving it knows the password")
                    }
                case .authentication(.sasl(let mechanisms)):
                    guard mechanisms.contains(SCRAMClient.mechanism) else {
                        throw PostgresError.authentication("the server offers \(mechanisms.joined(separator: ", ")), not SCRAM-SHA-256")
                    }
                    guard let password = configuration.password else {
                        throw PostgresError.authentication("the server asks for a password for user \(configuration.user) and the database URL has none")
                    }
                    let client = SCRAMClient(password: password)
                    try send([.saslInitialResponse(mechanism: SCRAMClient.mechanism, data: client.clientFirst)], deadline: deadline)
                    scram = client
                case .authentication(.saslContinue(let serverFirst)):
                    guard var client = scram else { throw PostgresError.protocolViolation("SASLContinue before SASL started") }
                    let final = try client.clientFinal(serverFirst: serverFirst)
                    scram = client
                    try send([.saslResponse(final)], deadline: deadline)
                case .authentication(.saslFinal(let serverFinal)):
                    guard let client = scram else { throw PostgresError.protocolViolation("SASLFinal before SASL started") }
                    try client.verify(serverFinal: serverFinal)
                    serverProved = true
                case .authentication(.cleartextPassword), .authentication(.md5Password):
                    throw PostgresError.authentication(
                        "the server asks user \(configuration.user) for a cleartext or MD5 password; Petty answers only SCRAM-SHA-256 "
                            + "(or trust/peer): set password_encryption = 'scram-sha-256', set the role's password again, and use scram-sha-256 in pg_hba.conf")
                case .authentication(.other(let code)):
                    throw PostgresError.authentication("the server asks for authentication method \(code), which Petty does not speak")
                case .backendKeyData(let processID, let secretKey):
                    self.processID = processID
                    self.secretKey = secretKey
                case .readyForQuery(let status):
                    transactionStatus = status
                    return
                case .errorResponse(let error):
                    if error.code == SQLState.invalidPassword || error.code == SQLState.invalidAuthorization {
                        throw PostgresError.authentication(error.message)
                    }
                    throw PostgresError.server(error)
                default:
                    throw PostgresError.protocolViolation("an unexpected message during the login")
                }
            }
        } catch {
            fail()
            throw error
        }
    }

    private func blockingQuery(_ sql: String, _ parameters: [PostgresValue], timeout: Double) throws -> PostgresRows {
        guard parameters.count <= Int(Int16.max) else { throw PostgresError.configuration("more than 32,767 parameters") }
        var columns: [PostgresColumn] = []
        var rows: [PostgresRow] = []
        var tag = ""
        let statement = statements.statement(for: sql)
        var messages: [FrontendMessage] = statement.parsed ? [] : [.parse(statement: statement.name, query: sql)]
        messages += [.bind(statement: statement.name, parameters: parameters), .describePortal, .execute, .sync]
        do {
            try exchange(messages, timeout: timeout, what: "a query's answer") { message in
                switch message {
                case .parseComplete:
                    statements.parsed(sql, as: statement.name)
                case .bindComplete, .noData:
                    break
                case .rowDescription(let described):
                    columns = described
                case .dataRow(let values):
                    guard values.count == columns.count else { throw PostgresError.protocolViolation("a row with \(values.count) of \(columns.count) columns") }
                    rows.append(PostgresRow(columns: columns, values: values))
                case .commandComplete(let completed):
                    tag = completed
                case .emptyQueryResponse:
                    tag = ""
                default:
                    return false
                }
                return true
            }
        } catch PostgresError.server(let error) where error.code == SQLState.cachedPlanInvalid {
            // A table the statement reads changed shape under it: parse it afresh next time.
            statements.forget(sql)
            throw PostgresError.server(error)
        }
        return PostgresRows(columns: columns, rows: rows, commandTag: tag)
    }

    private func blockingSimpleQuery(_ script: String, timeout: Double) throws {
        try exchange([.query(script)], timeout: timeout, what: "a script's answer") { message in
            switch message {
            case .rowDescription, .dataRow, .commandComplete, .emptyQueryResponse: true
            default: false
            }
        }
    }

    /// Sends `messages` and hands each answer to `absorb` (false: a message it did not expect, which breaks the
    /// connection) until the server is ready for the next query. An error the server reported on the way is thrown
    /// then, once the session is ready again, so it leaves the connection usable; any other failure closes it.
    private func exchange(
        _ messages: [FrontendMessage], timeout: Double, what: String, absorb: (BackendMessage) throws -> Bool
    ) throws {
        let deadline = MonotonicClock.seconds() + timeout
        guard socket != nil else { throw PostgresError.connection("the connection is closed") }
        do {
            try send(messages, deadline: deadline, timeout: timeout)
            var serverError: PostgresServerError?
            while true {
                let message = try nextMessage(deadline: deadline, timeout: timeout)
                switch message {
                case .errorResponse(let error):
                    serverError = error
                case .readyForQuery(let status):
                    transactionStatus = status
                    if let serverError {
                        log("postgres: \(Self.logText(serverError))")
                        throw PostgresError.server(serverError)
                    }
                    return
                default:
                    guard try absorb(message) else { throw PostgresError.protocolViolation("an unexpected message in \(what)") }
                }
            }
        } catch let error as PostgresError {
            if case .server = error {} else { fail() }
            throw error
        }
    }

    private func blockingNotifications(waitingUpTo seconds: Double) throws -> [PostgresNotification] {
        guard let socket else { throw PostgresError.connection("the connection is closed") }
        let deadline = MonotonicClock.seconds() + seconds
        do {
            while pendingNotifications.isEmpty {
                while let message = try decoder.next() { try absorbIdle(message) }
                guard pendingNotifications.isEmpty else { break }
                guard let bytes = try socket.receive(deadline: deadline) else { break }
                decoder.append(bytes)
            }
        } catch {
            fail()
            throw error
        }
        defer { pendingNotifications.removeAll() }
        return pendingNotifications
    }

    private func absorbIdle(_ message: BackendMessage) throws {
        switch message {
        case .notification(let note): pendingNotifications.append(note)
        case .noticeResponse, .parameterStatus: return
        case .errorResponse(let error):
            log("postgres: \(Self.logText(error))")
            throw PostgresError.server(error)
        default: throw PostgresError.protocolViolation("an unexpected message while idle")
        }
    }

    /// The next message that answers a request; notices, notifications and parameter changes are absorbed on the way.
    /// A FATAL error ends the session: it is thrown at once (the server closes the socket after it).
    private func nextMessage(deadline: Double, timeout: Double? = nil, what: String = "the query") throws -> BackendMessage {
        guard let socket else { throw PostgresError.connection("the connection is closed") }
        while true {
            while let message = try decoder.next() {
                switch message {
                case .notification(let note):
                    pendingNotifications.append(note)
                case .noticeResponse(let notice):
                    // NOTICE and below are routine ("already exists, skipping"); a WARNING is worth a line.
                    if notice.severity == "WARNING" { log("postgres: \(Self.logText(notice))") }
                case .parameterStatus:
                    continue
                case .errorResponse(let error) where error.endsSession:
                    log("postgres: \(Self.logText(error))")
                    if error.code == SQLState.invalidPassword || error.code == SQLState.invalidAuthorization {
                        throw PostgresError.authentication(error.message)
                    }
                    throw PostgresError.server(error)
                default:
                    return message
                }
            }
            guard let bytes = try socket.receive(deadline: deadline) else {
                try timedOut(timeout, what: what)
            }
            decoder.append(bytes)
        }
    }

    private func send(_ messages: [FrontendMessage], deadline: Double, timeout: Double? = nil) throws {
        guard let socket else { throw PostgresError.connection("the connection is closed") }
        var bytes: [UInt8] = []
        for message in messages { message.encode(into: &bytes) }
        guard try socket.sendAll(bytes, deadline: deadline) else { try timedOut(timeout, what: "sending") }
    }

    private func timedOut(_ timeout: Double?, what: String) throws -> Never {
        guard let timeout else { throw PostgresError.connection("\(what) did not finish in time") }
        cancelOnServer()
        throw PostgresError.timedOut(seconds: timeout)
    }

    /// Asks the server to stop the running statement (a CancelRequest on a new socket, protocol §55.2.8): without it
    /// the backend would go on working, and holding its locks, for a client that stopped waiting.
    private func cancelOnServer() {
        guard processID != 0, let socket = try? PostgresSocket.connect(to: configuration.endpoint, deadline: MonotonicClock.seconds() + 1) else { return }
        _ = try? socket.sendAll(FrontendMessage.cancelRequest(processID: processID, secretKey: secretKey).bytes, deadline: MonotonicClock.seconds() + 1)
        socket.close()
    }

    private func fail() {
        socket?.close()
        socket = nil
    }

    /// What the logs get: no DETAIL, which can quote row values (a push token in a unique violation, say).
    static func logText(_ error: PostgresServerError) -> String {
        var text = "\(error.severity) \(error.code): \(error.message)"
        if let constraint = error.constraint { text += " (constraint \(constraint))" }
        return text
    }
}

/// Runs blocking socket work on a Dispatch thread so Swift's cooperative pool is never blocked.
func offload<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
    try await withCheckedThrowingContinuation { continuation in
        DispatchQueue.global().async { continuation.resume(with: Result { try work() }) }
    }
}

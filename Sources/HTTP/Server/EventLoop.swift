#if canImport(Glibc)
import Glibc
#endif
import CEpoll
import Foundation
import Synchronization

/// Shared, immutable-after-start state every loop reads.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let responder: Responder
    let logger: Logger
    let parser: HTTPRequestParser
    let metrics: HTTPMetrics
    let serverName: [UInt8]

    init(configuration: ServerConfiguration, responder: Responder, metrics: HTTPMetrics, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.metrics = metrics
        self.logger = logger
        self.parser = HTTPRequestParser(limits: configuration.limits)
        self.serverName = Array(configuration.serverName.utf8)
    }
}

/// One epoll set on its own thread. Every connection it accepts stays on it; nothing here is shared but the listener.
// @unchecked: all mutable state belongs to the loop's own thread; other threads only write to its eventfd.
final class EventLoop: @unchecked Sendable {
    let index: Int
    private let context: ServerContext
    private let listener: Listener
    private let epfd: Int32
    private let wakeFd: Int32
    private var connections: [Connection?] = []
    private var connectionCount = 0
    private var scratch: UnsafeMutableRawBufferPointer
    private var dateCache = HTTPDateCache()
    private var now: Int64 = 0
    private var nextSweep: Int64 = 0
    private var acceptingPausedUntil: Int64?
    private var listening = false
    /// A descriptor held in reserve so that, out of descriptors, one pending client can be accepted and closed.
    private var spareFd: Int32 = -1
    private var sequence: UInt64 = 0
    private var drainDeadline: Int64?
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)

    init(index: Int, context: ServerContext, listener: Listener) throws {
        self.index = index
        self.context = context
        self.listener = listener
        epfd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard epfd >= 0 else { throw SocketError("epoll_create1") }
        wakeFd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard wakeFd >= 0 else { throw SocketError("eventfd") }
        scratch = .allocate(byteCount: 64 * 1024, alignment: 16)
        spareFd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        register(wakeFd, events: cepoll_in(), op: EPOLL_CTL_ADD)
        startListening()
    }

    deinit {
        scratch.deallocate()
    }

    func start() {
        let thread = Thread { [self] in
            run()
            finished.signal()
        }
        thread.name = "petty-loop-\(index)"
        thread.stackSize = 1 << 20
        thread.start()
    }

    /// Asks the loop to stop accepting and finish its connections within `graceSeconds`.
    func requestDrain() {
        stopRequested.store(true, ordering: .releasing)
        var one: UInt64 = 1
        _ = write(wakeFd, &one, 8)
    }

    func waitUntilFinished() {
        finished.wait()
    }

    // MARK: - The loop

    private func run() {
        let logs = LogBuffer.install(fd: 1)
        defer { logs.uninstall() }
        let maxEvents = 256
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: maxEvents)
        defer { events.deallocate() }
        now = Self.monotonicMillis()
        nextSweep = now + 1000
        while true {
            let timeout = Int32(max(0, min(nextSweep - now, (acceptingPausedUntil ?? Int64.max) - now, 1000)))
            logs.flush()
            let count = epoll_wait(epfd, events, Int32(maxEvents), timeout)
            now = Self.monotonicMillis()
            if count < 0 && errno != EINTR { context.logger.error("epoll_wait failed: errno \(errno)") }
            for i in 0..<max(0, Int(count)) {
                let event = events[i]
                let fd = event.data.fd
                if fd == listener.fd {
                    acceptConnections()
                } else if fd == wakeFd {
                    var value: UInt64 = 0
                    _ = read(wakeFd, &value, 8)
                } else if let connection = connection(for: fd) {
                    handle(event: event.events, on: connection)
                }
            }
            if stopRequested.load(ordering: .acquiring) && drainDeadline == nil { beginDrain() }
            if let until = acceptingPausedUntil, now >= until, drainDeadline == nil {
                acceptingPausedUntil = nil
                startListening()
            }
            if now >= nextSweep {
                sweepTimeouts()
                nextSweep = now + 1000
            }
            if let deadline = drainDeadline {
                if connectionCount == 0 { break }
                if now >= deadline {
                    for case let connection? in connections { close(connection) }
                    break
                }
            }
        }
        Glibc.close(epfd)
        Glibc.close(wakeFd)
        if spareFd >= 0 { Glibc.close(spareFd) }
    }

    private func connection(for fd: Int32) -> Connection? {
        Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    // MARK: - Accepting

    private func startListening() {
        guard !listening else { return }
        listening = register(listener.fd, events: cepoll_in() | UInt32(EPOLLEXCLUSIVE.rawValue), op: EPOLL_CTL_ADD)
    }

    private func stopListening() {
        guard listening else { return }
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, listener.fd, nil)
        listening = false
    }

    private func acceptConnections() {
        for _ in 0..<64 {
            switch listener.accept() {
            case .accepted(let fd, let peer):
                let open = context.metrics.openConnections.wrappingAdd(1, ordering: .relaxed).newValue
                if open > context.configuration.maxConnections || drainDeadline != nil {
                    context.metrics.openConnections.wrappingSubtract(1, ordering: .relaxed)
                    rejectOverCapacity(fd)
                    continue
                }
                adopt(fd: fd, peer: peer)
            case .wouldBlock, .failed:
                return
            case .exhausted:
                shedOneClient()
                return
            }
        }
    }

    private func adopt(fd: Int32, peer: String) {
        let connection = Connection(fd: fd, peer: peer, now: now)
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) - connections.count + 1 + 64))
        }
        connections[Int(fd)] = connection
        connectionCount += 1
        register(fd, events: cepoll_in() | cepoll_rdhup(), op: EPOLL_CTL_ADD)
    }

    /// Out of descriptors: accept one waiting client with the spare descriptor and close it, then stop
    /// polling the listener briefly, so the loop neither spins nor leaves clients hanging in the backlog.
    private func shedOneClient() {
        if spareFd >= 0 {
            Glibc.close(spareFd)
            spareFd = -1
            if case .accepted(let fd, _) = listener.accept() { Glibc.close(fd) }
            spareFd = open("/dev/null", O_RDONLY | O_CLOEXEC)
        }
        context.logger.warning("out of file descriptors (limit \(Sys.fileDescriptorLimit())); shedding new connections for 100 ms")
        stopListening()
        acceptingPausedUntil = now + 100
    }

    private func rejectOverCapacity(_ fd: Int32) {
        let body = #"{"error":true,"reason":"Server is at its connection limit; try again shortly"}"#
        let text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n\(body)"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { Sys.send(fd, UnsafeRawBufferPointer($0)) }
        Glibc.close(fd)
    }

    // MARK: - Connection events

    private func handle(event: UInt32, on connection: Connection) {
        if event & (cepoll_err() | cepoll_hup()) != 0 && event & cepoll_in() == 0 {
            close(connection)
            return
        }
        if event & cepoll_out() != 0 {
            flush(connection)
            if connection.fd < 0 { return }
        }
        if event & (cepoll_in() | cepoll_rdhup()) != 0 {
            readAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection) {
        var peerClosed = false
        // Bounded per wake-up so one busy client cannot starve the others on this loop.
        reading: for _ in 0..<4 {
            switch Sys.read(connection.fd, into: scratch) {
            case .bytes(let n):
                connection.lastReadAt = now
                if connection.isLingering { continue reading }
                connection.inbound.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<n]))
                if connection.requestStartedAt == nil { connection.requestStartedAt = now }
                if n < scratch.count { break reading }
            case .wouldBlock:
                break reading
            case .closed:
                peerClosed = true
                break reading
            }
        }
        if connection.isLingering {
            if peerClosed { close(connection) }
            return
        }
        processInbound(connection)
        flush(connection)
        if peerClosed && connection.fd >= 0 {
            // The client sent everything it will send; answer what was complete, then close.
            if connection.pendingOutbound == 0 { close(connection) } else { connection.state = .closingAfterFlush }
        }
    }

    private func processInbound(_ connection: Connection) {
        while case .open = connection.state, connection.pendingInbound > 0 {
            if connection.pendingOutbound >= context.configuration.maxPendingOutputBytes {
                pauseReading(connection)
                return
            }
            let result = connection.inbound.withUnsafeBytes { raw in
                context.parser.parse(UnsafeRawBufferPointer(rebasing: raw[connection.inboundStart...]))
            }
            switch result {
            case .complete(let head, let body, let consumed):
                connection.inboundStart += consumed
                connection.compactInbound()
                connection.headerComplete = false
                connection.sentContinue = false
                connection.requestStartedAt = connection.pendingInbound > 0 ? now : nil
                respond(to: head, body: body, on: connection)
            case .needMore(let head):
                if let head, !connection.headerComplete {
                    connection.headerComplete = true
                    if let failure = checkExpectation(head, connection: connection) {
                        queueError(failure, version: head.version, on: connection)
                    }
                }
                return
            case .failure(let error):
                context.logger.debug("closing \(connection.peer): \(error.status.code) \(error.reason)")
                queueError(Abort(error.status, reason: error.reason), version: .http1_1, on: connection)
                return
            }
        }
    }

    /// `Expect: 100-continue` gets an interim 100 once the head is in; any other expectation is 417.
    private func checkExpectation(_ head: HTTPRequestHead, connection: Connection) -> Abort? {
        guard let expect = head.headers.first(name: "Expect") else { return nil }
        guard expect.lowercasedASCII() == "100-continue" else {
            return Abort(.expectationFailed, reason: "Only 'Expect: 100-continue' is supported")
        }
        if head.version == .http1_1 && !connection.sentContinue {
            connection.sentContinue = true
            connection.outbound.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8)
        }
        return nil
    }

    private func respond(to head: HTTPRequestHead, body: [UInt8], on connection: Connection) {
        sequence &+= 1
        connection.requestsServed &+= 1
        let request = Request(head: head, body: body, peerAddress: connection.peer, id: RequestID(loop: index, sequence: sequence))
        let response: Response
        do {
            response = try context.responder.respond(to: request)
        } catch {
            context.logger.error("unhandled error for \(head.method) \(head.path): \(error)")
            response = ErrorRendering.response(for: Abort(.internalServerError), request: request, revealDetails: false)
        }
        let keepAlive = head.wantsKeepAlive && drainDeadline == nil && !response.forcesClose
        ResponseSerializer.write(
            response, version: head.version, includeBody: head.method != .HEAD, keepAlive: keepAlive,
            date: dateCache.current(), serverName: context.serverName, into: &connection.outbound
        )
        if !keepAlive { connection.state = .closingAfterFlush }
    }

    private func queueError(_ error: Abort, version: HTTPVersion, on connection: Connection) {
        var response = ErrorRendering.response(for: error, request: nil, revealDetails: false)
        response.headers.replaceOrAdd(name: "Connection", value: "close")
        ResponseSerializer.write(
            response, version: version, includeBody: true, keepAlive: false,
            date: dateCache.current(), serverName: context.serverName, into: &connection.outbound
        )
        connection.state = .closingAfterFlush
    }

    // MARK: - Writing

    private func flush(_ connection: Connection) {
        while connection.pendingOutbound > 0 {
            let result = connection.outbound.withUnsafeBytes { raw in
                Sys.send(connection.fd, UnsafeRawBufferPointer(rebasing: raw[connection.outboundStart...]))
            }
            switch result {
            case .bytes(let n):
                connection.outboundStart += n
                connection.lastWriteProgressAt = now
                context.metrics.recordBytesSent(n, loop: index)
            case .wouldBlock:
                setWriteInterest(connection, true)
                return
            case .closed:
                close(connection)
                return
            }
        }
        connection.compactOutbound()
        setWriteInterest(connection, false)
        switch connection.state {
        case .open:
            if connection.readPaused {
                resumeReading(connection)
                processInbound(connection)
                if connection.pendingOutbound > 0 { flush(connection) }
            }
        case .closingAfterFlush:
            Sys.shutdownWrite(connection.fd)
            connection.state = .lingering(deadline: now + 2000)
            connection.inbound = []
            connection.inboundStart = 0
            if connection.readPaused { resumeReading(connection) }
        case .lingering:
            break
        }
    }

    // MARK: - Interest and lifetime

    private func setWriteInterest(_ connection: Connection, _ wanted: Bool) {
        guard connection.writeInterest != wanted else { return }
        connection.writeInterest = wanted
        updateInterest(connection)
    }

    private func pauseReading(_ connection: Connection) {
        guard !connection.readPaused else { return }
        connection.readPaused = true
        updateInterest(connection)
    }

    private func resumeReading(_ connection: Connection) {
        guard connection.readPaused else { return }
        connection.readPaused = false
        updateInterest(connection)
    }

    private func updateInterest(_ connection: Connection) {
        var events: UInt32 = connection.readPaused ? 0 : cepoll_in() | cepoll_rdhup()
        if connection.writeInterest { events |= cepoll_out() }
        register(connection.fd, events: events, op: EPOLL_CTL_MOD)
    }

    private func close(_ connection: Connection) {
        guard connection.fd >= 0, Int(connection.fd) < connections.count, connections[Int(connection.fd)] === connection else { return }
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        context.metrics.openConnections.wrappingSubtract(1, ordering: .relaxed)
        _ = epoll_ctl(epfd, EPOLL_CTL_DEL, connection.fd, nil)
        Glibc.close(connection.fd)
    }

    @discardableResult
    private func register(_ fd: Int32, events: UInt32, op: Int32) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        return epoll_ctl(epfd, op, fd, &event) == 0
    }

    // MARK: - Timeouts and shutdown

    private func sweepTimeouts() {
        let configuration = context.configuration
        let idle = Int64(configuration.idleTimeoutSeconds * 1000)
        let header = Int64(configuration.headerTimeoutSeconds * 1000)
        let body = Int64(configuration.bodyTimeoutSeconds * 1000)
        let write = Int64(configuration.writeTimeoutSeconds * 1000)
        for case let connection? in connections {
            switch connection.state {
            case .lingering(let deadline):
                if now >= deadline { close(connection) }
                continue
            case .open, .closingAfterFlush:
                break
            }
            if connection.pendingOutbound > 0 {
                if now - connection.lastWriteProgressAt > write { close(connection) }
            } else if let started = connection.requestStartedAt, connection.pendingInbound == 0 {
                // Accepted but silent: there is nothing to answer, so close once the header time is up.
                if now - started > header { close(connection) }
            } else if let started = connection.requestStartedAt {
                let timedOut = connection.headerComplete ? now - connection.lastReadAt > body : now - started > header
                if timedOut {
                    queueError(Abort(.requestTimeout, reason: "The request took too long to arrive"), version: .http1_1, on: connection)
                    flush(connection)
                }
            } else if now - connection.lastReadAt > idle {
                close(connection)
            }
        }
    }

    private func beginDrain() {
        stopListening()
        drainDeadline = now + Int64(context.configuration.shutdownGraceSeconds * 1000)
        for case let connection? in connections {
            let busy = connection.pendingInbound > 0 || connection.pendingOutbound > 0
            if !busy { close(connection) }
        }
    }

    static func monotonicMillis() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CEpoll
import Foundation
import Synchronization
import Clocks

/// Shared, immutable-after-start state every loop reads.
final class ServerContext: Sendable {
    let configuration: ServerConfiguration
    let responder: Responder
    let logger: Logger
    let parser: HTTPRequestParser
    let metrics: HTTPMetrics
    let connectionSettings: ConnectionMachine.Settings
    let workers: OffLoopWorkers

    init(configuration: ServerConfiguration, responder: Responder, metrics: HTTPMetrics, logger: Logger) {
        self.configuration = configuration
        self.responder = responder
        self.metrics = metrics
        self.logger = logger
        self.parser = HTTPRequestParser(limits: configuration.limits)
        self.workers = OffLoopWorkers(count: configuration.offLoopThreads)
        self.connectionSettings = ConnectionMachine.Settings(
            parser: parser,
            headerTimeout: Int64(configuration.headerTimeoutSeconds * 1000),
            bodyTimeout: Int64(configuration.bodyTimeoutSeconds * 1000),
            bodyIdleTimeout: Int64(configuration.bodyIdleTimeoutSeconds * 1000),
            idleTimeout: Int64(configuration.idleTimeoutSeconds * 1000),
            writeTimeout: Int64(configuration.writeTimeoutSeconds * 1000),
            maxPendingOutputBytes: configuration.maxPendingOutputBytes)
    }
}

/// One epoll set on its own thread, with its own listener. Every connection it accepts stays on it; loops share
/// nothing but atomics.
/// A thin shell: it moves bytes between sockets and each connection's `ConnectionMachine`, and does what the
/// machine asks (send, shut down, close, watch for readable/writable).
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
    private let reserve: DescriptorReserve
    /// `Server:`'s bytes, made by each loop for itself: each response retains them, and a count on one shared
    /// copy would move its cache line between the cores on every request. Not measurable on the 2 shared cores
    /// this was checked on (two threads taking counts on one object or one each: 36-69 ns a pair either way, load
    /// 20, December 2026); kept because it costs one stored property.
    private let serverName: [UInt8]
    /// `context.responder`, held by the loop, so no request's call copies it out of the context (a count on the
    /// one responder all loops share). Same measurement and reason as `serverName`.
    private let responder: Responder
    private var shedLog = LogRateLimit(burst: 1, windowMillis: 1000)
    private var sequence: UInt64 = 0
    private var refusalLog = LogRateLimit()
    private var yieldPacer = YieldPacer()
    private var drainDeadline: Int64?
    private let stopRequested = Atomic<Bool>(false)
    private let finished = DispatchSemaphore(value: 0)
    private var nextSerial: UInt64 = 0
    /// Answers the workers made for this loop's connections, waiting for the loop to write them.
    private let mailbox = Mutex(Mailbox())

    private struct Mailbox {
        var answers: [(fd: Int32, serial: UInt64, response: Response)] = []
        /// The loop has ended (its eventfd is closed): later answers are dropped with their connections.
        var closed = false
    }

    init(index: Int, context: ServerContext, listener: Listener, reserve: DescriptorReserve) throws {
        self.index = index
        self.context = context
        self.listener = listener
        self.reserve = reserve
        serverName = Array(context.configuration.serverName.utf8)
        responder = context.responder
        epfd = try SystemCall.epollCreate()
        wakeFd = try SystemCall.eventFD()
        scratch = .allocate(byteCount: 64 * 1024, alignment: 16)
        SystemCall.epollControl(epfd, EPOLL_CTL_ADD, wakeFd, events: cepoll_in())
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
        SystemCall.signalEventFD(wakeFd)
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
        now = MonotonicClock.millis()
        nextSweep = now + 1000
        while true {
            let timeout = Int32(max(0, min(nextSweep - now, (acceptingPausedUntil ?? Int64.max) - now, 1000)))
            logs.flush()
            let count = SystemCall.epollWait(epfd, events, Int32(maxEvents), timeout: timeout)
            now = MonotonicClock.millis()
            for i in 0..<count {
                let event = events[i]
                let fd = event.data.fd
                if fd == listener.fd {
                    acceptConnections()
                } else if fd == wakeFd {
                    SystemCall.drainEventFD(wakeFd)
                    writeAnswers()
                } else if let connection = connection(for: fd) {
                    handle(event: event.events, on: connection)
                }
            }
            if count > 0, yieldPacer.shouldYield(afterBatchAt: MonotonicClock.micros()) { SystemCall.yieldCore() }
            if stopRequested.load(ordering: .acquiring) && drainDeadline == nil { beginDrain() }
            if let until = acceptingPausedUntil, now >= until, drainDeadline == nil {
                acceptingPausedUntil = nil
                startListening()
            }
            if now >= nextSweep {
                if reserve.isShort { reserve.refill() }
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
        mailbox.withLock { $0.closed = true }
        SystemCall.close(epfd)
        SystemCall.close(wakeFd)
    }

    private func connection(for fd: Int32) -> Connection? {
        Int(fd) < connections.count ? connections[Int(fd)] : nil
    }

    // MARK: - Accepting

    private func startListening() {
        guard !listening else { return }
        // This loop is its listener's only waiter, so no wake-up is shared (no EPOLLEXCLUSIVE).
        listening = SystemCall.epollControl(epfd, EPOLL_CTL_ADD, listener.fd, events: cepoll_in())
    }

    private func stopListening() {
        guard listening else { return }
        SystemCall.epollControl(epfd, EPOLL_CTL_DEL, listener.fd)
        listening = false
    }

    private func acceptConnections() {
        for _ in 0..<64 {
            switch listener.accept() {
            case .accepted(let fd, let peer):
                if reserve.isShort {
                    reserve.reclaim(fd)
                    reportShed(1)
                    continue
                }
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
                shedWaitingClients()
                return
            }
        }
    }

    /// Reads at once rather than after an epoll round trip: a client usually sends its request right behind the
    /// handshake, so a short-lived connection is answered and closed without ever joining the epoll set.
    private func adopt(fd: Int32, peer: String) {
        let machine = ConnectionMachine(settings: context.connectionSettings, now: now)
        nextSerial &+= 1
        let connection = Connection(fd: fd, peer: peer, serial: nextSerial, machine: machine)
        if Int(fd) >= connections.count {
            connections.append(contentsOf: repeatElement(nil, count: Int(fd) - connections.count + 1 + 64))
        }
        connections[Int(fd)] = connection
        connectionCount += 1
        readAvailable(connection)
    }

    /// Out of descriptors: with a reserved slot lent, accept every client already waiting and close it (each
    /// closed one frees the slot for the next), then stop polling the listener briefly, so the loop neither spins
    /// nor leaves clients hanging in the backlog.
    private func shedWaitingClients() {
        let shed = reserve.withSlotLent {
            var shed = 0
            while shed < 1024, case .accepted(let fd, _) = listener.accept() {
                SystemCall.close(fd)
                shed += 1
            }
            return shed
        }
        reportShed(shed)
        stopListening()
        acceptingPausedUntil = now + 100
    }

    private func reportShed(_ count: Int) {
        if let closed = shedLog.admit(now: now, tallying: count) {
            context.logger.warning(
                "out of file descriptors (limit \(SystemCall.fileDescriptorLimit())); closed \(closed) waiting connection(s) since the last report; accepting again every 100 ms")
        }
    }

    private func rejectOverCapacity(_ fd: Int32) {
        let body = #"{"error":true,"reason":"Server is at its connection limit; try again shortly"}"#
        let text = "HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nRetry-After: 1\r\nConnection: close\r\n\r\n\(body)"
        var bytes = Array(text.utf8)
        _ = bytes.withUnsafeMutableBytes { SystemCall.send(fd, UnsafeRawBufferPointer($0), more: true) }
        SystemCall.close(fd)
    }

    // MARK: - Connection events

    /// What a connection's machine borrows from the loop while it handles one input.
    private struct Host: ConnectionHost {
        unowned(unsafe) let loop: EventLoop
        unowned(unsafe) let connection: Connection
        var peer: String { connection.peer }

        var isDraining: Bool { loop.drainDeadline != nil }
        var serverName: [UInt8] { loop.serverName }

        func respond(to head: consuming HTTPRequestHead, body: [UInt8]) -> Response? {
            loop.respond(to: head, body: body, on: connection)
        }

        func answersWithoutBody(_ head: HTTPRequestHead) -> Bool { loop.responder.answersWithoutBody(head) }

        func date() -> [UInt8] { loop.dateCache.current() }

        func refused(_ status: HTTPStatus, reason: String) {
            loop.context.metrics.recordRefusal(status: status.code, loop: loop.index)
            guard let dropped = loop.refusalLog.admit(now: loop.now) else { return }
            let note = dropped > 0 ? " (\(dropped) more refused since the last line)" : ""
            loop.context.logger.notice("refused \(peer): \(status.code) \(reason)\(note)")
        }
    }

    private func handle(event: UInt32, on connection: Connection) {
        if event & (cepoll_err() | cepoll_hup()) != 0 && event & cepoll_in() == 0 {
            close(connection)
            return
        }
        if event & cepoll_out() != 0 {
            if !perform(.flush, on: connection) { return }
        }
        if event & (cepoll_in() | cepoll_rdhup()) != 0 {
            readAvailable(connection)
        }
    }

    private func readAvailable(_ connection: Connection) {
        var peerClosed = false
        // Bounded per wake-up so one busy client cannot starve the others on this loop.
        reading: for _ in 0..<4 {
            switch SystemCall.read(connection.fd, into: scratch) {
            case .bytes(let n):
                connection.machine.received(UnsafeRawBufferPointer(rebasing: scratch[0..<n]), now: now)
                // A lingering connection reads on to the client's EOF, discarding.
                if n < scratch.count && !connection.machine.isLingering { break reading }
            case .wouldBlock:
                break reading
            case .closed:
                peerClosed = true
                break reading
            }
        }
        var host = Host(loop: self, connection: connection)
        let action = connection.machine.readCompleted(now: now, host: &host)
        if perform(action, on: connection), peerClosed {
            perform(connection.machine.peerClosed(), on: connection)
        }
    }

    /// The response now, or nil when a worker makes it (`writeAnswers` hands it to the connection later).
    private func respond(to head: consuming HTTPRequestHead, body: [UInt8], on connection: Connection) -> Response? {
        sequence &+= 1
        let id = RequestID(loop: index, sequence: sequence)
        // For the log line of a failure only: `path` is joined from the segments, so the target is kept instead.
        let method = head.method, target = head.target
        let logger = context.logger
        @Sendable func failed(_ error: any Error) -> Response {
            let path = target.prefix { $0 != "?" }
            logger.error("unhandled error for \(method) \(path): \(error)")
            return ErrorRendering.response(for: Abort(.internalServerError), request: nil, revealDetails: false)
        }
        do {
            switch try responder.reply(owning: Request(head: head, body: body, peerAddress: connection.peer, id: id)) {
            case .now(let response):
                return response
            case .later(let work):
                let fd = connection.fd, serial = connection.serial
                context.workers.submit { [self] in
                    let response: Response
                    do { response = try work() } catch { response = failed(error) }
                    deliver(response, fd: fd, serial: serial)
                }
                return nil
            }
        } catch {
            return failed(error)
        }
    }

    /// On a worker: queues the answer for the loop and wakes it (under the lock, so never after the loop closed
    /// its eventfd).
    private func deliver(_ response: Response, fd: Int32, serial: UInt64) {
        mailbox.withLock { mailbox in
            guard !mailbox.closed else { return }
            mailbox.answers.append((fd, serial, response))
            if mailbox.answers.count == 1 { SystemCall.signalEventFD(wakeFd) }
        }
    }

    /// Hands each finished answer to its connection, if that connection is still open.
    private func writeAnswers() {
        let answers = mailbox.withLock { mailbox in
            defer { mailbox.answers = [] }
            return mailbox.answers
        }
        for answer in answers {
            guard let connection = connection(for: answer.fd), connection.serial == answer.serial else { continue }
            var host = Host(loop: self, connection: connection)
            perform(connection.machine.responseArrived(answer.response, now: now, host: &host), on: connection)
        }
    }

    /// Does what the machine asked, and whatever it asks next; false once the connection is closed.
    @discardableResult
    private func perform(_ action: ConnectionAction, on connection: Connection) -> Bool {
        var action = action
        while true {
            switch action {
            case .none:
                updateInterest(connection)
                return true
            case .flush:
                action = flush(connection)
            case .shutdownWrite:
                SystemCall.shutdownWrite(connection.fd)
                action = .none
            case .close:
                close(connection)
                return false
            }
        }
    }

    private func flush(_ connection: Connection) -> ConnectionAction {
        // A response the connection ends after is sent corked: its FIN then leaves with its last bytes, one
        // segment fewer for both ends of a `Connection: close` exchange.
        let more = connection.machine.finishesAfterFlush
        while connection.machine.pendingOutbound > 0 {
            let fd = connection.fd
            switch connection.machine.withPendingOutput({ SystemCall.send(fd, $0, more: more) }) {
            case .bytes(let n):
                connection.machine.sent(n, now: now)
                context.metrics.recordBytesSent(n, loop: index)
            case .wouldBlock:
                return connection.machine.sendBlocked()
            case .closed:
                return .close
            }
        }
        var host = Host(loop: self, connection: connection)
        return connection.machine.outputDrained(now: now, host: &host)
    }

    // MARK: - Interest and lifetime

    private func updateInterest(_ connection: Connection) {
        var events: UInt32 = connection.machine.wantsRead ? cepoll_in() | cepoll_rdhup() : 0
        if connection.machine.wantsWrite { events |= cepoll_out() }
        guard let registered = connection.registeredEvents else {
            connection.registeredEvents = events
            SystemCall.epollControl(epfd, EPOLL_CTL_ADD, connection.fd, events: events)
            return
        }
        guard events != registered else { return }
        connection.registeredEvents = events
        SystemCall.epollControl(epfd, EPOLL_CTL_MOD, connection.fd, events: events)
    }

    private func close(_ connection: Connection) {
        guard connection.fd >= 0, Int(connection.fd) < connections.count, connections[Int(connection.fd)] === connection else { return }
        connections[Int(connection.fd)] = nil
        connectionCount -= 1
        context.metrics.openConnections.wrappingSubtract(1, ordering: .relaxed)
        // No EPOLL_CTL_DEL: closing the only descriptor for the socket removes it from the epoll set.
        SystemCall.close(connection.fd)
    }

    // MARK: - Timeouts and shutdown

    private func sweepTimeouts() {
        for case let connection? in connections {
            var host = Host(loop: self, connection: connection)
            let action = connection.machine.tick(now: now, host: &host)
            if action != .none { perform(action, on: connection) }
        }
    }

    private func beginDrain() {
        stopListening()
        drainDeadline = now + Int64(context.configuration.shutdownGraceSeconds * 1000)
        for case let connection? in connections {
            if !connection.machine.isBusy { close(connection) }
        }
    }
}

import Glibc

/// What the event loop lends a connection's state machine: the application, the clock-derived `Date` bytes,
/// and whether the server is shutting down. Implemented by the loop for a socket, and by tests without one.
protocol ConnectionHost {
    var isDraining: Bool { get }
    var serverName: [UInt8] { get }
    /// The response, or nil when it comes later, through the machine's `responseArrived`.
    mutating func respond(to head: consuming HTTPRequestHead, body: [UInt8]) -> Response?
    /// Whether the answer to `head` is known without its body (no route takes its method and path): such a request
    /// sent with `Expect: 100-continue` is answered at once, never invited to send the body.
    func answersWithoutBody(_ head: HTTPRequestHead) -> Bool
    mutating func date() -> [UInt8]
    /// The connection answered a request itself, before any route (parser error, timeout, expectation): for the
    /// log and the metrics.
    mutating func refused(_ status: HTTPStatus, reason: String)
}

/// What the shell must do after the machine took an input.
enum ConnectionAction: Equatable {
    /// Nothing but bring the socket's read/write interest in line with `wantsRead`/`wantsWrite`.
    case none
    /// Send `pendingOutput`, report each send with `sent(_:now:)`, then call `sendBlocked()` or `outputDrained`.
    case flush
    /// Shut the socket for writing (the machine now lingers, discarding what the client still sends).
    case shutdownWrite
    /// Close the socket.
    case close
}

/// One HTTP/1.1 connection as a pure state machine: received bytes, sent-byte counts and the time go in, and
/// actions come out (send the queued bytes, shut down, close, pause reading). It never sees a socket, so
/// pipelining, keep-alive, timeouts and backpressure are tested without one (`ConnectionMachineTests`).
struct ConnectionMachine {
    struct Settings {
        var parser: HTTPRequestParser
        var headerTimeout: Int64
        /// A body's total deadline from its head, and the longest pause between its reads (milliseconds).
        var bodyTimeout: Int64
        var bodyIdleTimeout: Int64
        var idleTimeout: Int64
        var writeTimeout: Int64
        /// How long to drain a closing client's bytes after our final response (milliseconds).
        var linger: Int64 = 2000
        /// Output queued at which reading pauses until the client takes it.
        var maxPendingOutputBytes: Int
    }

    enum State: Equatable {
        /// Reading and answering requests.
        case open
        /// Answer what is queued, then close (after `Connection: close`, a framing error, or shutdown).
        case closingAfterFlush
        /// Our side is shut for writing; unread client bytes are drained until EOF or the linger deadline,
        /// so a final error response is not destroyed by a TCP reset.
        case lingering(deadline: Int64)
    }

    let settings: Settings
    private(set) var state = State.open
    /// Whether closing after the flush lingers first. Only a client that may still be sending needs it (one whose
    /// request failed, or one the server closes on): its next bytes would otherwise make the kernel answer with a
    /// reset that can destroy the response before the client reads it. A client that asked to close, or closed,
    /// sends nothing more, so its connection closes at once, as nginx's `lingering_close on` does.
    private var lingersOnClose = true

    /// Received bytes not yet consumed by a complete request; `inboundStart` skips consumed ones.
    private var inbound: [UInt8] = []
    private var inboundStart = 0
    /// How far the parse of the request at `inboundStart` got.
    private var progress = HTTPParseProgress()
    /// Bytes queued for the client.
    private var outbound = OutboundQueue()

    /// When the request in progress started: at its first byte, or at accept for the first request, so a client
    /// that connects and never sends a byte is held no longer than the header timeout (nil: between requests).
    private var requestStartedAt: Int64?
    private var headerComplete = false
    /// When the head of the request in progress was complete: its body's deadline counts from here.
    private var bodyStartedAt: Int64 = 0
    private var sentContinue = false
    private var lastReadAt: Int64
    private var lastWriteProgressAt: Int64
    private(set) var readPaused = false
    /// The last send would block: wait for the socket to become writable.
    private(set) var wantsWrite = false
    private(set) var requestsServed: UInt64 = 0
    /// A request whose response is being made off the loop: what its framing needs. Nothing more is read or
    /// answered until it arrives, so pipelined answers keep their order.
    private var awaiting: Awaiting?

    private struct Awaiting {
        var wantsKeepAlive: Bool
        var version: HTTPVersion
        var includeBody: Bool
        var closing: Bool
    }

    init(settings: Settings, now: Int64) {
        self.settings = settings
        lastReadAt = now
        lastWriteProgressAt = now
        requestStartedAt = now
    }

    var pendingInbound: Int { inbound.count - inboundStart }
    var pendingOutbound: Int { outbound.count }
    var wantsRead: Bool { !readPaused && awaiting == nil }
    /// Mid-request, awaiting a response or with output queued: shutdown lets it finish within the grace period.
    var isBusy: Bool { pendingInbound > 0 || pendingOutbound > 0 || awaiting != nil }

    /// Whether the write side ends (close or shutdown) once the pending output is sent.
    var finishesAfterFlush: Bool {
        if case .closingAfterFlush = state { return true }
        return false
    }

    var isLingering: Bool {
        if case .lingering = state { return true }
        return false
    }

    // MARK: - Reading

    /// Bytes arrived from the client.
    mutating func received(_ bytes: UnsafeRawBufferPointer, now: Int64) {
        lastReadAt = now
        if isLingering { return }
        inbound.append(contentsOf: bytes)
        if requestStartedAt == nil { requestStartedAt = now }
    }

    /// A read burst ended: answer every complete request received (pipelined ones in order).
    mutating func readCompleted<Host: ConnectionHost>(now: Int64, host: inout Host) -> ConnectionAction {
        if isLingering { return .none }
        processInbound(now: now, host: &host)
        return .flush
    }

    /// The client closed its side. Called after the flush that `readCompleted` asked for.
    mutating func peerClosed() -> ConnectionAction {
        if isLingering { return .close }
        // The client sent everything it will send; answer what was complete, then close.
        if pendingOutbound == 0 && awaiting == nil { return .close }
        state = .closingAfterFlush
        lingersOnClose = false
        return .none
    }

    private mutating func processInbound<Host: ConnectionHost>(now: Int64, host: inout Host) {
        while case .open = state, awaiting == nil, pendingInbound > 0 {
            if pendingOutbound >= settings.maxPendingOutputBytes {
                readPaused = true
                return
            }
            let result = inbound.withUnsafeBytes { raw in
                settings.parser.parse(UnsafeRawBufferPointer(rebasing: raw[inboundStart...]), resuming: &progress)
            }
            // Consumed, so a complete request's head moves on to the application instead of being copied out.
            switch consume result {
            case .complete(let head, let body, let consumed):
                inboundStart += consumed
                compactInbound()
                headerComplete = false
                sentContinue = false
                requestStartedAt = pendingInbound > 0 ? now : nil
                respond(to: head, body: body, host: &host)
            case .needMore(let head):
                if let head, !headerComplete {
                    headerComplete = true
                    bodyStartedAt = now
                    switch expectation(of: head, host: host) {
                    case .none: break
                    case .invite:
                        sentContinue = true
                        outbound.appendInline { $0.append(contentsOf: "HTTP/1.1 100 Continue\r\n\r\n".utf8) }
                    case .answerWithoutBody:
                        respond(to: head, body: [], host: &host, closing: true)
                    case .refuse(let failure):
                        queueError(failure, version: head.version, host: &host)
                    }
                }
                return
            case .failure(let error):
                queueError(Abort(error.status, reason: error.reason), version: .http1_1, host: &host)
                return
            }
        }
    }

    private enum Expectation {
        case none
        /// Send the interim 100: the client waits for it before its body.
        case invite
        /// The answer does not depend on the body: send it now, instead of a 100, and close after it (the body,
        /// should the client send it anyway, is discarded while the connection lingers).
        case answerWithoutBody
        case refuse(Abort)
    }

    /// `Expect: 100-continue` gets an interim 100 once the head is in, unless the request is refused whatever its
    /// body (RFC 9110 §10.1.1: a server may answer with the final status instead); any other expectation is 417.
    private func expectation<Host: ConnectionHost>(of head: HTTPRequestHead, host: Host) -> Expectation {
        guard let expect = head.headers.first(name: "Expect") else { return .none }
        guard expect.lowercasedASCII() == "100-continue" else {
            return .refuse(Abort(.expectationFailed, reason: "Only 'Expect: 100-continue' is supported"))
        }
        if host.answersWithoutBody(head) { return .answerWithoutBody }
        return head.version == .http1_1 && !sentContinue ? .invite : .none
    }

    /// `closing`: the connection ends after this answer whatever the request asked.
    private mutating func respond<Host: ConnectionHost>(
        to head: consuming HTTPRequestHead, body: [UInt8], host: inout Host, closing: Bool = false
    ) {
        requestsServed &+= 1
        // What the answer's framing needs of the head, read before the head is handed to the application.
        let framing = Awaiting(wantsKeepAlive: head.wantsKeepAlive, version: head.version, includeBody: head.method != .HEAD, closing: closing)
        guard let response = host.respond(to: head, body: body) else {
            awaiting = framing
            return
        }
        write(response, framing, host: &host)
    }

    /// The response to the request `awaiting` was kept for: queue it, then go on with what was received meanwhile.
    mutating func responseArrived<Host: ConnectionHost>(_ response: Response, now: Int64, host: inout Host) -> ConnectionAction {
        guard let framing = awaiting else { return .none }
        awaiting = nil
        write(response, framing, host: &host)
        lastWriteProgressAt = now
        if !readPaused { processInbound(now: now, host: &host) }
        return .flush
    }

    private mutating func write<Host: ConnectionHost>(_ response: Response, _ framing: Awaiting, host: inout Host) {
        guard case .open = state else {
            // The client closed its side while the response was made off the loop: it ends the connection.
            ResponseSerializer.write(
                response, version: framing.version, includeBody: framing.includeBody, keepAlive: false,
                date: host.date(), serverName: host.serverName, into: &outbound
            )
            return
        }
        let keepAlive = framing.wantsKeepAlive && !framing.closing && !host.isDraining && !response.forcesClose
        ResponseSerializer.write(
            response, version: framing.version, includeBody: framing.includeBody, keepAlive: keepAlive,
            date: host.date(), serverName: host.serverName, into: &outbound
        )
        if !keepAlive {
            state = .closingAfterFlush
            lingersOnClose = framing.wantsKeepAlive || pendingInbound > 0
        }
    }

    private mutating func queueError<Host: ConnectionHost>(_ error: Abort, version: HTTPVersion, host: inout Host) {
        host.refused(error.status, reason: error.reason)
        var response = ErrorRendering.response(for: error, request: nil, revealDetails: false)
        response.headers.replaceOrAdd(name: "Connection", value: "close")
        ResponseSerializer.write(
            response, version: version, includeBody: true, keepAlive: false,
            date: host.date(), serverName: host.serverName, into: &outbound
        )
        state = .closingAfterFlush
        lingersOnClose = true
    }

    // MARK: - Writing

    /// Calls `body` with iovecs over the bytes waiting to be sent, in order (none when nothing waits).
    func withPendingOutput<R>(_ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        outbound.withIOVecs(body)
    }

    /// The socket took `count` bytes of the pending output.
    mutating func sent(_ count: Int, now: Int64) {
        outbound.consume(count)
        lastWriteProgressAt = now
    }

    /// The socket's send buffer is full: wait until it is writable.
    mutating func sendBlocked() -> ConnectionAction {
        wantsWrite = true
        return .none
    }

    /// Every pending byte was sent: resume reading if it was paused, or finish closing.
    mutating func outputDrained<Host: ConnectionHost>(now: Int64, host: inout Host) -> ConnectionAction {
        wantsWrite = false
        switch state {
        case .open:
            guard readPaused else { return .none }
            readPaused = false
            processInbound(now: now, host: &host)
            return pendingOutbound > 0 ? .flush : .none
        case .closingAfterFlush:
            guard lingersOnClose else { return .close }
            state = .lingering(deadline: now + settings.linger)
            inbound = []
            inboundStart = 0
            readPaused = false
            return .shutdownWrite
        case .lingering:
            return .none
        }
    }

    // MARK: - Time

    /// The once-a-second check of this connection's deadlines.
    mutating func tick<Host: ConnectionHost>(now: Int64, host: inout Host) -> ConnectionAction {
        switch state {
        case .lingering(let deadline):
            return now >= deadline ? .close : .none
        case .open, .closingAfterFlush:
            break
        }
        // The off-loop handler bounds its own wait; the connection's clocks start again with its response.
        if awaiting != nil { return .none }
        if pendingOutbound > 0 {
            return now - lastWriteProgressAt > settings.writeTimeout ? .close : .none
        } else if let started = requestStartedAt, pendingInbound == 0 {
            // Accepted but silent: there is nothing to answer, so close once the header time is up.
            return now - started > settings.headerTimeout ? .close : .none
        } else if let started = requestStartedAt {
            let timedOut = headerComplete
                ? now - lastReadAt > settings.bodyIdleTimeout || now - bodyStartedAt > settings.bodyTimeout
                : now - started > settings.headerTimeout
            guard timedOut else { return .none }
            queueError(Abort(.requestTimeout, reason: "The request took too long to arrive"), version: .http1_1, host: &host)
            return .flush
        } else {
            return now - lastReadAt > settings.idleTimeout ? .close : .none
        }
    }

    // MARK: - Buffers

    /// Drops consumed bytes once they dominate the buffer, and lets large idle buffers go.
    private mutating func compactInbound() {
        if inboundStart == inbound.count {
            if inbound.capacity > 16 * 1024 { inbound = [] } else { inbound.removeAll(keepingCapacity: true) }
            inboundStart = 0
        } else if inboundStart > 4096 && inboundStart * 2 > inbound.count {
            inbound.removeFirst(inboundStart)
            inboundStart = 0
        }
    }
}

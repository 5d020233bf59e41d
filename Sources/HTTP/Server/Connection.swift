/// One client connection's buffers and progress. Owned and touched only by its event loop's thread.
final class Connection {
    enum State {
        /// Reading and answering requests.
        case open
        /// Answer what is queued, then close (after `Connection: close`, a framing error, or shutdown).
        case closingAfterFlush
        /// Our side is shut for writing; unread client bytes are drained until EOF or the linger deadline,
        /// so a final error response is not destroyed by a TCP reset.
        case lingering(deadline: Int64)
    }

    let fd: Int32
    let peer: String
    var state = State.open

    /// Received bytes not yet consumed by a complete request; `inboundStart` skips consumed ones.
    var inbound: [UInt8] = []
    var inboundStart = 0
    /// Bytes queued for the client; `outboundStart` skips those already sent.
    var outbound: [UInt8] = []
    var outboundStart = 0

    /// When the request in progress started: at its first byte, or at accept for the first request, so a client
    /// that connects and never sends a byte is held no longer than the header timeout (nil: between requests).
    var requestStartedAt: Int64?
    var headerComplete = false
    var sentContinue = false
    var lastReadAt: Int64
    var lastWriteProgressAt: Int64
    var readPaused = false
    var writeInterest = false
    var requestsServed: UInt64 = 0

    init(fd: Int32, peer: String, now: Int64) {
        self.fd = fd
        self.peer = peer
        self.lastReadAt = now
        self.lastWriteProgressAt = now
        self.requestStartedAt = now
    }

    var pendingInbound: Int { inbound.count - inboundStart }
    var pendingOutbound: Int { outbound.count - outboundStart }

    var isLingering: Bool {
        if case .lingering = state { return true }
        return false
    }

    /// Drops consumed bytes once they dominate the buffer, and lets large idle buffers go.
    func compactInbound() {
        if inboundStart == inbound.count {
            if inbound.capacity > 16 * 1024 { inbound = [] } else { inbound.removeAll(keepingCapacity: true) }
            inboundStart = 0
        } else if inboundStart > 4096 && inboundStart * 2 > inbound.count {
            inbound.removeFirst(inboundStart)
            inboundStart = 0
        }
    }

    func compactOutbound() {
        if outboundStart == outbound.count {
            if outbound.capacity > 64 * 1024 { outbound = [] } else { outbound.removeAll(keepingCapacity: true) }
            outboundStart = 0
        }
    }
}

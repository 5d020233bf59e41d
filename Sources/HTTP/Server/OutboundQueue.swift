import Glibc

/// The bytes queued for one client, in order. Heads and small bodies are copied into one reused buffer; a body of
/// `sharedBodyBytes` or more is queued by reference instead (arrays are copy-on-write, so a memoized or freshly
/// rendered body is never copied again in user space) and the kernel gathers the pieces in one `sendmsg`.
struct OutboundQueue {
    /// Below this a body is cheaper to copy than to queue by reference: the piece's bookkeeping and a second iovec
    /// cost about what copying a few kilobytes does, so only large bodies (near lists, clusters, change pages) skip it.
    static let sharedBodyBytes = 16 * 1024
    /// The most pieces handed to one send; more stay queued for the next.
    static let maxPiecesPerSend = 16

    private enum Piece {
        /// `inline[start..<end]`.
        case inline(start: Int, end: Int)
        case shared([UInt8])

        var count: Int {
            switch self {
            case .inline(let start, let end): end - start
            case .shared(let bytes): bytes.count
            }
        }
    }

    private var inline: [UInt8] = []
    private var pieces: [Piece] = []
    /// The first piece not fully sent, and how much of it was.
    private var firstPiece = 0
    private var sentOfFirst = 0
    /// Bytes queued and not yet sent.
    private(set) var count = 0

    var isEmpty: Bool { count == 0 }

    /// Appends bytes written by `write` to the inline buffer, after everything queued so far.
    mutating func appendInline(_ write: (inout [UInt8]) -> Void) {
        let start = inline.count
        write(&inline)
        let end = inline.count
        guard end > start else { return }
        count += end - start
        if case .inline(let previousStart, let previousEnd)? = pieces.last, previousEnd == start, pieces.count > firstPiece {
            pieces[pieces.count - 1] = .inline(start: previousStart, end: end)
        } else {
            pieces.append(.inline(start: start, end: end))
        }
    }

    /// Queues a body: by reference when it is large, else copied.
    mutating func append(body: [UInt8]) {
        guard body.count >= Self.sharedBodyBytes else {
            if !body.isEmpty { appendInline { $0.append(contentsOf: body) } }
            return
        }
        count += body.count
        pieces.append(.shared(body))
    }

    /// The socket took `sent` bytes from the front.
    mutating func consume(_ sent: Int) {
        precondition(sent <= count, "sent more than was queued")
        count -= sent
        var remaining = sent
        while remaining > 0 {
            let left = pieces[firstPiece].count - sentOfFirst
            if remaining < left {
                sentOfFirst += remaining
                return
            }
            remaining -= left
            firstPiece += 1
            sentOfFirst = 0
        }
        // Empty pieces are never queued, so a fully sent front piece is always passed over above.
        if count == 0 { reset() }
    }

    /// Calls `body` with up to `maxPiecesPerSend` iovecs over the unsent bytes, in order (none when empty).
    func withIOVecs<R>(_ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: Self.maxPiecesPerSend) { vectors in
            inline.withUnsafeBytes { inlineBytes in
                fill(vectors, filled: 0, piece: firstPiece, inline: inlineBytes, body)
            }
        }
    }

    /// Fills one iovec per piece, nesting so every shared body's storage stays pinned until `body` returns.
    private func fill<R>(
        _ vectors: UnsafeMutableBufferPointer<iovec>, filled: Int, piece index: Int, inline: UnsafeRawBufferPointer,
        _ body: (UnsafeBufferPointer<iovec>) -> R
    ) -> R {
        guard index < pieces.count, filled < vectors.count else {
            return body(UnsafeBufferPointer(rebasing: vectors[0..<filled]))
        }
        let skip = index == firstPiece ? sentOfFirst : 0
        switch pieces[index] {
        case .inline(let start, let end):
            vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: inline.baseAddress! + start + skip),
                                    iov_len: end - start - skip)
            return fill(vectors, filled: filled + 1, piece: index + 1, inline: inline, body)
        case .shared(let bytes):
            return bytes.withUnsafeBytes { raw in
                vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                                        iov_len: raw.count - skip)
                return fill(vectors, filled: filled + 1, piece: index + 1, inline: inline, body)
            }
        }
    }

    /// Everything was sent: keep the buffers' capacity for the next response unless it grew large.
    private mutating func reset() {
        if inline.capacity > 64 * 1024 { inline = [] } else { inline.removeAll(keepingCapacity: true) }
        if pieces.capacity > 64 { pieces = [] } else { pieces.removeAll(keepingCapacity: true) }
        firstPiece = 0
        sentOfFirst = 0
    }
}

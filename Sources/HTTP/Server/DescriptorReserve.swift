#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// Descriptors held in reserve, shared by every event loop, so that a loop out of descriptors can still accept
/// the clients waiting in its backlog in order to close them instead of leaving them hanging.
///
/// A slot freed for shedding can be taken by any thread's next descriptor, most often another loop's `accept`.
/// Lost for good, the reserve would leave that listener's clients hanging until some connection closes, so the
/// reserve counts as short from the moment a slot is lent until it is held again, and a loop that accepts a
/// client while it is short closes that client and takes the slot back (`reclaim`).
final class DescriptorReserve: Sendable {
    private let held: Mutex<[Int32]>
    private let wanted: Int
    private let short = Atomic<Bool>(false)

    init(count: Int) {
        wanted = max(1, count)
        held = Mutex([])
        refill()
    }

    deinit {
        held.withLock { $0.forEach { SystemCall.close($0) } }
    }

    /// Whether a reserved slot is lent or missing. Read right after an accept (a system call, so the store made
    /// before the lender's `close` is visible): a client accepted while this is true may hold the reserve's slot.
    var isShort: Bool { short.load(ordering: .sequentiallyConsistent) }

    /// Takes back the slot a client accepted while short may hold: closes `fd` and fills the reserve again.
    func reclaim(_ fd: Int32) {
        SystemCall.close(fd)
        refill()
    }

    /// Opens descriptors until the reserve is full, or as many as the process can.
    func refill() {
        held.withLock { topUp(&$0) }
    }

    /// Lends one reserved slot to `shed` (which accepts and closes waiting clients, returning how many) and
    /// takes it back; with the reserve empty, `shed` is not called and 0 is returned.
    func withSlotLent(_ shed: () -> Int) -> Int {
        held.withLock { spares in
            // Short before the slot is freed, so whoever takes it sees that it did.
            short.store(true, ordering: .sequentiallyConsistent)
            var closed = 0
            if let spare = spares.popLast() {
                SystemCall.close(spare)
                closed = shed()
            }
            topUp(&spares)
            return closed
        }
    }

    private func topUp(_ spares: inout [Int32]) {
        while spares.count < wanted {
            let fd = SystemCall.openDevNull()
            guard fd >= 0 else { break }
            spares.append(fd)
        }
        short.store(spares.count < wanted, ordering: .sequentiallyConsistent)
    }
}

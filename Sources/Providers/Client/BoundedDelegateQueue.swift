import Foundation

/// The client's delegate queue, with flow control. URLSession (swift-corelibs-foundation) hands every chunk of a
/// body to the delegate by adding an operation here from libcurl's thread, and never waits for it: libcurl inflating
/// a gzip bomb, or reading an endless body at loopback speed, outruns the delegate, and unbounded, the chunks queued
/// here take memory to gigabytes before the size cap can even count them. Adding an operation therefore blocks while
/// `limit` are already waiting, so at most that many undelivered chunks (16 KiB each from libcurl) exist at a time.
// @unchecked: OperationQueue is thread-safe but not annotated; our own counter is guarded by its condition lock.
final class BoundedDelegateQueue: OperationQueue, @unchecked Sendable {
    private let limit: Int
    /// A blocked producer resumes once the backlog is down to this, not at the first free slot: waking it per
    /// operation costs a thread switch per 16 KiB chunk, enough to make a bomb take minutes on a busy machine.
    private let resumeAt: Int
    private let condition = NSCondition()
    private var waiting = 0

    init(limit: Int, name: String) {
        self.limit = max(1, limit)
        resumeAt = self.limit / 4
        super.init()
        self.name = name
        maxConcurrentOperationCount = 1
    }

    override func addOperation(_ block: @escaping @Sendable () -> Void) {
        condition.lock()
        // Only a producer waits: an operation of this queue waiting for the queue to drain would wait for itself.
        if waiting >= limit && OperationQueue.current !== self {
            while waiting > resumeAt { condition.wait() }
        }
        waiting += 1
        condition.unlock()
        super.addOperation { [self] in
            block()
            condition.lock()
            waiting -= 1
            if waiting == resumeAt { condition.broadcast() }
            condition.unlock()
        }
    }
}

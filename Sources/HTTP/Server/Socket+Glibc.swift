#if canImport(Glibc)
import Glibc
#endif
import CEpoll

/// An error from a system call, carrying the call's name and errno.
public struct SocketError: Error, CustomStringConvertible, Sendable {
    public let call: String
    public let errno: Int32

    public init(_ call: String, errno: Int32 = Glibc.errno) {
        self.call = call
        self.errno = errno
    }

    public var description: String { "\(call) failed: \(String(cString: strerror(errno))) (errno \(errno))" }

    public var isAddressInUse: Bool { errno == EADDRINUSE }
}

/// Every Glibc call the server makes, behind tiny wrappers: EINTR retried, EAGAIN mapped to "would block",
/// ECONNRESET/EPIPE and the like to "closed". EBADF, EFAULT and (where noted) EINVAL can only come from a bug in
/// this program (a stale descriptor, a bad pointer), so they are logged as errors and stop debug builds.
enum SystemCall {
    enum IOResult: Equatable {
        case bytes(Int)
        case wouldBlock
        case closed
    }

    static let logger = Logger(label: "petty.sys")

    /// Whether `code` from `call` means the program is wrong rather than the peer or the system; logs it if so.
    @discardableResult
    static func checkProgrammingError(_ call: StaticString, _ code: Int32, einvalIsBug: Bool = true) -> Bool {
        guard code == EBADF || code == EFAULT || (einvalIsBug && code == EINVAL) else { return false }
        logger.error("\(call) failed: \(String(cString: strerror(code))) (errno \(code)); this is a bug")
        assertionFailure("\(call) failed with errno \(code)")
        return true
    }

    static func ignoreSIGPIPE() {
        signal(SIGPIPE, SIG_IGN)
    }

    static func setOption(_ fd: Int32, _ level: Int32, _ name: Int32, _ value: Int32 = 1) throws {
        var value = value
        guard setsockopt(fd, level, name, &value, socklen_t(MemoryLayout<Int32>.size)) == 0 else {
            throw SocketError("setsockopt")
        }
    }

    // MARK: - Sockets

    static func streamSocket(family: Int32) throws(SocketError) -> Int32 {
        let flags = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let fd = socket(family, flags, 0)
        guard fd >= 0 else { throw SocketError("socket") }
        return fd
    }

    static func bind(_ fd: Int32, _ address: sockaddr_storage, length: socklen_t) throws(SocketError) {
        var storage = address
        let bound = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.bind(fd, $0, length) }
        }
        guard bound == 0 else { throw SocketError("bind") }
    }

    static func listen(_ fd: Int32, backlog: Int32) throws(SocketError) {
        guard Glibc.listen(fd, backlog) == 0 else { throw SocketError("listen") }
    }

    /// The address a socket is bound to (the real port when bound to port 0).
    static func localAddress(_ fd: Int32) -> sockaddr_storage {
        var local = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let result = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        if result != 0 { checkProgrammingError("getsockname", errno) }
        return local
    }

    /// One accept4 call: the new non-blocking descriptor, or -1 with `errno` set (the caller decides).
    static func accept(_ fd: Int32, peer: inout sockaddr_storage) -> Int32 {
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        return withUnsafeMutablePointer(to: &peer) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                accept4(fd, $0, &length, Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue))
            }
        }
    }

    // MARK: - Reading and writing

    static func read(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer) -> IOResult {
        while true {
            let n = Glibc.read(fd, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .closed }
            if let failed = failure(of: "read") { return failed }
        }
    }

    /// `more`: the socket's FIN follows these bytes, so a short tail may wait for it (MSG_MORE) and leave in the
    /// same segment.
    static func send(_ fd: Int32, _ buffer: UnsafeRawBufferPointer, more: Bool = false) -> IOResult {
        while true {
            let n = Glibc.send(fd, buffer.baseAddress, buffer.count, sendFlags(more: more))
            if n >= 0 { return .bytes(n) }
            if let failed = failure(of: "send") { return failed }
        }
    }

    /// Sends the bytes the iovecs cover, in order, in one call.
    static func send(_ fd: Int32, _ vectors: UnsafeBufferPointer<iovec>, more: Bool = false) -> IOResult {
        if vectors.count == 1 {
            return send(fd, UnsafeRawBufferPointer(start: vectors[0].iov_base, count: vectors[0].iov_len), more: more)
        }
        var message = msghdr()
        message.msg_iov = UnsafeMutablePointer(mutating: vectors.baseAddress)
        message.msg_iovlen = vectors.count
        while true {
            let n = Glibc.sendmsg(fd, &message, sendFlags(more: more))
            if n >= 0 { return .bytes(n) }
            if let failed = failure(of: "sendmsg") { return failed }
        }
    }

    private static func sendFlags(more: Bool) -> Int32 {
        Int32(MSG_NOSIGNAL) | (more ? Int32(MSG_MORE) : 0)
    }

    /// What a failed `read` or `send` left in errno: nil to retry (EINTR), `.wouldBlock`, else `.closed`
    /// (ECONNRESET, EPIPE and the like: the peer is gone; a bug's errno is logged first).
    private static func failure(of call: StaticString) -> IOResult? {
        switch errno {
        case EINTR: return nil
        case EAGAIN, EWOULDBLOCK: return .wouldBlock
        case let code:
            checkProgrammingError(call, code)
            return .closed
        }
    }

    /// Writes all of `bytes` to a blocking descriptor (the log's stdout or stderr), retrying EINTR and giving up
    /// on any other error: a log line is never worth failing for.
    static func writeAll(_ fd: Int32, _ bytes: UnsafeRawBufferPointer) {
        var offset = 0
        while offset < bytes.count {
            let n = Glibc.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if n <= 0 { if errno == EINTR { continue }; return }
            offset += n
        }
    }

    /// Closes a descriptor; never retried on EINTR (Linux has released it already).
    static func close(_ fd: Int32) {
        if Glibc.close(fd) != 0 { checkProgrammingError("close", errno) }
    }

    static func shutdownWrite(_ fd: Int32) {
        shutdown(fd, Int32(SHUT_WR))
    }

    static func shutdown(_ fd: Int32, _ how: Int32) {
        // ENOTCONN: the peer already reset the connection; nothing to shut down.
        if Glibc.shutdown(fd, how) != 0 { checkProgrammingError("shutdown", errno) }
    }

    static func openDevNull() -> Int32 {
        open("/dev/null", O_RDONLY | O_CLOEXEC)
    }

    /// Lets another runnable thread have this core; returns at once when there is none.
    static func yieldCore() {
        _ = sched_yield()
    }

    /// Whole seconds since the epoch (for the `Date` header).
    static func wallClockSeconds() -> Int {
        time(nil)
    }

    /// Hands freed heap pages back to the kernel (glibc keeps them otherwise).
    static func trimHeap() {
        _ = malloc_trim(0)
    }

    /// Blocks of `bytes` or more get a mapping of their own (`M_MMAP_THRESHOLD`), which also stops glibc moving
    /// the threshold; false if refused.
    static func setMmapThreshold(_ bytes: Int32) -> Bool {
        mallopt(M_MMAP_THRESHOLD, bytes) == 1
    }

    // MARK: - epoll and eventfd

    static func epollCreate() throws -> Int32 {
        let fd = epoll_create1(Int32(EPOLL_CLOEXEC))
        guard fd >= 0 else { throw SocketError("epoll_create1") }
        return fd
    }

    /// Adds, modifies or removes `fd` in the epoll set; false when the kernel refused (e.g. out of memory).
    @discardableResult
    static func epollControl(
        _ epfd: Int32, _ op: Int32, _ fd: Int32, events: UInt32 = 0
    ) -> Bool {
        var event = epoll_event()
        event.events = events
        event.data.fd = fd
        guard epoll_ctl(epfd, op, fd, &event) != 0 else { return true }
        // ENOENT/EEXIST/EPERM/ENOMEM/ENOSPC are outcomes; EBADF and EINVAL mean a wrong descriptor or op.
        checkProgrammingError("epoll_ctl", errno)
        return false
    }

    /// Waits for events; 0 when interrupted by a signal.
    static func epollWait(_ epfd: Int32, _ events: UnsafeMutablePointer<epoll_event>, _ max: Int32, timeout: Int32) -> Int {
        let count = epoll_wait(epfd, events, max, timeout)
        if count >= 0 { return Int(count) }
        let code = errno
        if code != EINTR && !checkProgrammingError("epoll_wait", code) {
            logger.error("epoll_wait failed: errno \(code)")
        }
        return 0
    }

    static func eventFD() throws -> Int32 {
        let fd = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard fd >= 0 else { throw SocketError("eventfd") }
        return fd
    }

    /// Wakes the loop polling `fd`; EAGAIN (the counter is full) means a wake-up is already pending.
    static func signalEventFD(_ fd: Int32) {
        var one: UInt64 = 1
        if Glibc.write(fd, &one, 8) < 0, errno != EAGAIN { checkProgrammingError("write(eventfd)", errno) }
    }

    static func drainEventFD(_ fd: Int32) {
        var value: UInt64 = 0
        if Glibc.read(fd, &value, 8) < 0, errno != EAGAIN { checkProgrammingError("read(eventfd)", errno) }
    }

    /// Raises the soft descriptor limit to the hard limit (as nginx's `worker_rlimit_nofile` would); returns the new soft limit.
    @discardableResult
    static func raiseFileDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = min(limit.rlim_max, 1 << 20)
            if setrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &raised) == 0 { return Int(raised.rlim_cur) }
        }
        return Int(limit.rlim_cur)
    }

    /// The soft limit on open file descriptors.
    static func fileDescriptorLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else { return 1024 }
        return Int(limit.rlim_cur)
    }
}

#if canImport(Glibc)
import Glibc
#endif
import CEpoll
import Testing
@testable import HTTP

/// The syscall helper keeps each errno's meaning: EAGAIN is "would block", a gone peer is "closed",
/// and only errors that can come from a bug in this program are reported as one.
@Suite("Syscall helper")
struct SystemCallTests {
    /// A connected pair of non-blocking stream sockets.
    static func socketPair() throws -> (Int32, Int32) {
        var fds: [Int32] = [-1, -1]
        let type = Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    @Test("read and send: bytes, would-block on an empty socket, closed once the peer has gone")
    func ioResults() throws {
        let (a, b) = try Self.socketPair()
        defer { SystemCall.close(a) }
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64, alignment: 1)
        defer { buffer.deallocate() }
        #expect(SystemCall.read(a, into: buffer) == .wouldBlock)
        let sent = Array("hello".utf8).withUnsafeBytes { SystemCall.send(b, $0) }
        #expect(sent == .bytes(5))
        #expect(SystemCall.read(a, into: buffer) == .bytes(5))
        SystemCall.close(b)
        #expect(SystemCall.read(a, into: buffer) == .closed)  // EOF
        #expect(Array("x".utf8).withUnsafeBytes { SystemCall.send(a, $0) } == .closed)  // EPIPE, without SIGPIPE
    }

    @Test("Only EBADF, EFAULT and a meaningful EINVAL count as programming errors")
    func classification() {
        for code in [EAGAIN, EINTR, ECONNRESET, EPIPE, ENOTCONN, ENOMEM, EMFILE] {
            #expect(!SystemCall.checkProgrammingError("test", code), "errno \(code)")
        }
        #expect(!SystemCall.checkProgrammingError("test", EINVAL, einvalIsBug: false))
    }

    @Test("epoll: a registered readable socket is reported, and a wake-up through the eventfd too")
    func epoll() throws {
        let epfd = try SystemCall.epollCreate()
        let wake = try SystemCall.eventFD()
        let (a, b) = try Self.socketPair()
        defer { [epfd, wake, a, b].forEach(SystemCall.close) }
        #expect(SystemCall.epollControl(epfd, EPOLL_CTL_ADD, a, events: cepoll_in()))
        #expect(SystemCall.epollControl(epfd, EPOLL_CTL_ADD, wake, events: cepoll_in()))
        let events = UnsafeMutablePointer<epoll_event>.allocate(capacity: 4)
        defer { events.deallocate() }
        #expect(SystemCall.epollWait(epfd, events, 4, timeout: 0) == 0)
        _ = Array("x".utf8).withUnsafeBytes { SystemCall.send(b, $0) }
        SystemCall.signalEventFD(wake)
        let count = SystemCall.epollWait(epfd, events, 4, timeout: 1000)
        #expect(Set((0..<count).map { events[$0].data.fd }) == [a, wake])
        SystemCall.drainEventFD(wake)
        SystemCall.drainEventFD(wake)  // empty: EAGAIN is not an error
        // Removing a descriptor that is not registered is an outcome (ENOENT), not a bug.
        #expect(!SystemCall.epollControl(epfd, EPOLL_CTL_DEL, b))
    }
}

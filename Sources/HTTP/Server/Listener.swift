#if canImport(Glibc)
import Glibc
#endif
import CEpoll

public enum ListenerError: Error, CustomStringConvertible, Sendable {
    case cannotResolve(host: String, message: String)
    case addressInUse(host: String, port: Int)
    case system(SocketError)

    public var description: String {
        switch self {
        case .cannotResolve(let host, let message): "cannot resolve host \(host): \(message)"
        case .addressInUse(let host, let port): "address \(host):\(port) is already in use"
        case .system(let error): error.description
        }
    }
}

/// A bound, listening, non-blocking TCP socket. `HTTPServer` gives each event loop its own, all on one port with
/// SO_REUSEPORT, so the kernel spreads new connections over the loops without a shared accept queue.
// @unchecked: an immutable file descriptor after init; accept4 on it is safe from any thread.
final class Listener: @unchecked Sendable {
    let fd: Int32
    let host: String
    /// The bound port (the real one when asked for port 0).
    let port: Int

    /// `listening: false` binds only: a probe that proves the port free (and learns it, for port 0) without ever
    /// taking a connection that would then be reset when it closes.
    init(host: String, port: Int, reusePort: Bool = false, listening: Bool = true, backlog: Int32 = 4096) throws(ListenerError) {
        let address: SocketAddress
        do { address = try SocketAddress.resolve(host: host, port: port) } catch let error as ListenerError {
            throw error
        } catch { throw .cannotResolve(host: host, message: "\(error)") }
        let fd: Int32
        do { fd = try SystemCall.streamSocket(family: address.family) } catch { throw .system(error) }
        do {
            try SystemCall.setOption(fd, SOL_SOCKET, SO_REUSEADDR)
            if reusePort { try SystemCall.setOption(fd, SOL_SOCKET, SO_REUSEPORT) }
            // Accepted sockets inherit it on Linux, which saves a setsockopt per connection.
            try SystemCall.setOption(fd, Int32(IPPROTO_TCP), TCP_NODELAY)
            if address.family == AF_INET6 {
                // `::` accepts IPv4 too (dual stack) unless the host says otherwise.
                try SystemCall.setOption(fd, Int32(IPPROTO_IPV6), IPV6_V6ONLY, 0)
            }
        } catch let error as SocketError {
            SystemCall.close(fd)
            throw .system(error)
        } catch { SystemCall.close(fd); throw .system(SocketError("setsockopt")) }
        do {
            try SystemCall.bind(fd, address.storage, length: address.length)
        } catch {
            SystemCall.close(fd)
            throw error.isAddressInUse ? .addressInUse(host: host, port: port) : .system(error)
        }
        if listening {
            do { try SystemCall.listen(fd, backlog: backlog) } catch {
                SystemCall.close(fd)
                throw .system(error)
            }
        }
        let local = SystemCall.localAddress(fd)
        self.fd = fd
        self.host = host
        self.port = SocketAddress.describe(local).port
    }

    enum AcceptResult {
        case accepted(fd: Int32, peer: String)
        case wouldBlock
        /// The process or system is out of file descriptors.
        case exhausted
        case failed
    }

    func accept() -> AcceptResult {
        var peer = sockaddr_storage()
        while true {
            let client = SystemCall.accept(fd, peer: &peer)
            if client >= 0 {
                return .accepted(fd: client, peer: SocketAddress.describe(peer).host)
            }
            switch errno {
            case EINTR, ECONNABORTED, EPROTO: continue
            case EAGAIN, EWOULDBLOCK: return .wouldBlock
            case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .exhausted
            case let code:
                // EINVAL here is the listener shut by `stopAccepting`, not a bug.
                SystemCall.checkProgrammingError("accept4", code, einvalIsBug: false)
                return .failed
            }
        }
    }

    /// Leaves the listening state at once: the kernel refuses new connections (RST) and resets those still in
    /// the backlog, while the descriptor stays open (its number cannot be reused under a loop that still polls it).
    func stopAccepting() {
        SystemCall.shutdown(fd, Int32(SHUT_RDWR))
    }

    func close() {
        SystemCall.close(fd)
    }
}

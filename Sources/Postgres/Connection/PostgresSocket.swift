#if canImport(Glibc)
import Glibc
import Clocks
#endif

/// A non-blocking stream socket (TCP or Unix-domain) whose every wait is a `poll` bounded by a monotonic deadline.
/// All Glibc calls of the client live here.
struct PostgresSocket {
    let fd: Int32

    static func connect(to endpoint: PostgresConfiguration.Endpoint, deadline: Double) throws -> PostgresSocket {
        switch endpoint {
        case .tcp(let host, let port): try connectTCP(host: host, port: port, deadline: deadline)
        case .unixSocket(let path): try connectUnix(path: path, deadline: deadline)
        }
    }

    private static func connectTCP(host: String, port: Int, deadline: Double) throws -> PostgresSocket {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &found)
        guard status == 0, let first = found else {
            throw PostgresError.connection("cannot resolve \(host): \(String(cString: gai_strerror(status)))")
        }
        defer { freeaddrinfo(found) }
        var lastError = "no address for \(host)"
        var info: UnsafeMutablePointer<addrinfo>? = first
        while let address = info {
            info = address.pointee.ai_next
            do {
                let socket = try open(family: address.pointee.ai_family, protocol: address.pointee.ai_protocol)
                do {
                    try socket.finishConnect(address.pointee.ai_addr, address.pointee.ai_addrlen, deadline: deadline, place: "\(host):\(port)")
                    var on: Int32 = 1
                    setsockopt(socket.fd, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
                    return socket
                } catch {
                    socket.close()
                    throw error
                }
            } catch let error as PostgresError {
                lastError = error.description
            }
        }
        throw PostgresError.connection(lastError)
    }

    private static func connectUnix(path: String, deadline: Double) throws -> PostgresSocket {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let pathBytes = Array(path.utf8)
        guard pathBytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            throw PostgresError.configuration("the socket path \(path) is too long")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in pathBytes.enumerated() { raw[index] = byte }
        }
        let socket = try open(family: AF_UNIX, protocol: 0)
        do {
            try withUnsafePointer(to: &address) { pointer in
                try pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    try socket.finishConnect($0, socklen_t(MemoryLayout<sockaddr_un>.size), deadline: deadline, place: path)
                }
            }
        } catch {
            socket.close()
            throw error
        }
        return socket
    }

    private static func open(family: Int32, protocol: Int32) throws -> PostgresSocket {
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
        guard fd >= 0 else { throw PostgresError.connection("socket() failed: \(errorText(errno))") }
        return PostgresSocket(fd: fd)
    }

    private func finishConnect(_ address: UnsafePointer<sockaddr>, _ length: socklen_t, deadline: Double, place: String) throws {
        if Glibc.connect(fd, address, length) == 0 { return }
        guard errno == EINPROGRESS || errno == EAGAIN || errno == EINTR else {
            throw PostgresError.connection("cannot connect to \(place): \(Self.errorText(errno))")
        }
        guard try wait(for: Int16(POLLOUT), until: deadline) else {
            throw PostgresError.connection("cannot connect to \(place): timed out")
        }
        var failure: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &failure, &size)
        guard failure == 0 else { throw PostgresError.connection("cannot connect to \(place): \(Self.errorText(failure))") }
    }

    /// Whether `events` became ready before the deadline (false on timeout).
    func wait(for events: Int16, until deadline: Double) throws -> Bool {
        while true {
            let remaining = deadline - MonotonicClock.seconds()
            guard remaining > 0 else { return false }
            var entry = pollfd(fd: fd, events: events, revents: 0)
            let ready = poll(&entry, 1, Int32(min(remaining * 1000, 60_000).rounded(.up)))
            if ready > 0 { return true }
            if ready < 0 && errno != EINTR { throw PostgresError.connection("poll failed: \(Self.errorText(errno))") }
        }
    }

    /// Whether bytes (or the end of the stream) are waiting right now.
    func isReadable() -> Bool {
        var entry = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        return poll(&entry, 1, 0) > 0
    }

    func sendAll(_ bytes: [UInt8], deadline: Double) throws -> Bool {
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count > 0 { sent += count; continue }
            if count < 0 && errno == EINTR { continue }
            if count < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                guard try wait(for: Int16(POLLOUT), until: deadline) else { return false }
                continue
            }
            throw PostgresError.connection("send failed: \(Self.errorText(errno))")
        }
        return true
    }

    /// Some bytes, or nil when the deadline passed first. The server closing the connection is an error.
    func receive(deadline: Double) throws -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if count > 0 { return Array(buffer[0..<count]) }
            if count == 0 { throw PostgresError.connection("the server closed the connection") }
            if errno == EINTR { continue }
            guard errno == EAGAIN || errno == EWOULDBLOCK else { throw PostgresError.connection("recv failed: \(Self.errorText(errno))") }
            guard try wait(for: Int16(POLLIN), until: deadline) else { return nil }
        }
    }

    func close() { _ = Glibc.close(fd) }

    static func errorText(_ code: Int32) -> String { String(cString: strerror(code)) }
}

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Clocks

/// HTTP/1.1 POSTs over blocking sockets, for `http://` endpoints. FoundationNetworking on Linux stops the process
/// ("Transfer completed, but there's no response") on every error answer of etcd's gateway, which comes chunked
/// with HTTP trailers; this client reads those itself. Connections are kept open and reused (a few idle ones per
/// endpoint), so a fleet member's steady calls cost no TCP handshakes. `https://` endpoints still go through
/// URLSession (TLS).
final class PlainHTTP: Sendable {
    struct Answer {
        var status: Int
        var body: Data
    }

    static let maxBytes = 16 << 20
    /// Idle connections kept per endpoint: the renewal and the round loop may call at once.
    static let idlePerEndpoint = 4

    private let idle = Mutex([String: [Int32]]())

    init() {}

    deinit {
        idle.withLock { idle in for fd in idle.values.joined() { close(fd) } }
    }

    func post(_ url: URL, headers: [(String, String)], body: Data, timeout: Double) async throws(EtcdError) -> Answer {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Answer, EtcdError>, Never>) in
            DispatchQueue.global().async {
                do throws(EtcdError) {
                    continuation.resume(returning: .success(try self.blockingPost(url, headers: headers, body: body, timeout: timeout)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// One request and its answer within `timeout`. A kept connection the server closed while idle fails before a
    /// byte of answer arrives; the request then goes once more over a new connection.
    func blockingPost(_ url: URL, headers: [(String, String)], body: Data, timeout: Double) throws(EtcdError) -> Answer {
        let deadline = MonotonicClock.seconds() + timeout
        let key = Self.endpointKey(url)
        let request = Self.request(url, headers: headers, body: body, keepAlive: true)
        if let fd = idle.withLock({ $0[key]?.popLast() }) {
            var reader = HTTPAnswerReader(fd: fd)
            do {
                return try exchange(fd, request, &reader, key: key, deadline: deadline)
            } catch {
                close(fd)
                guard reader.received == 0, MonotonicClock.seconds() < deadline, case .unreachable = error else { throw error }
            }
        }
        let fd = try Self.connect(url, deadline: deadline)
        var reader = HTTPAnswerReader(fd: fd)
        do {
            return try exchange(fd, request, &reader, key: key, deadline: deadline)
        } catch {
            close(fd)
            throw error
        }
    }

    private func exchange(_ fd: Int32, _ request: [UInt8], _ reader: inout HTTPAnswerReader, key: String, deadline: Double) throws(EtcdError) -> Answer {
        try Self.send(fd, request, deadline: deadline)
        let head = try reader.head(before: deadline)
        let body = try reader.body(head, before: deadline)
        let kept = head.keepsAlive && idle.withLock { idle -> Bool in
            guard idle[key, default: []].count < Self.idlePerEndpoint else { return false }
            idle[key, default: []].append(fd)
            return true
        }
        if !kept { close(fd) }
        return Answer(status: head.status, body: Data(body))
    }

    // MARK: - Sockets

    static func endpointKey(_ url: URL) -> String { "\(url.host ?? "127.0.0.1"):\(url.port ?? 80)" }

    static func request(_ url: URL, headers: [(String, String)], body: Data, keepAlive: Bool) -> [UInt8] {
        let host = url.host ?? "127.0.0.1"
        var head = "POST \(url.path.isEmpty ? "/" : url.path) HTTP/1.1\r\nHost: \(host):\(url.port ?? 80)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        if !keepAlive { head += "Connection: close\r\n" }
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return Array((head + "\r\n").utf8) + Array(body)
    }

    static func connect(_ url: URL, deadline: Double) throws(EtcdError) -> Int32 {
        let host = url.host ?? "127.0.0.1"
        let port = url.port ?? 80
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var found: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &found) == 0, let info = found else { throw .unreachable("cannot resolve the host") }
        defer { freeaddrinfo(found) }
        let fd = socket(info.pointee.ai_family, info.pointee.ai_socktype, info.pointee.ai_protocol)
        guard fd >= 0 else { throw .unreachable("no socket (errno \(errno))") }
        // On Linux the send timeout bounds connect() too.
        setTimeout(fd, SO_SNDTIMEO, deadline: deadline)
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        guard Glibc.connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            close(fd)
            throw .unreachable(describe(code))
        }
        return fd
    }

    static func send(_ fd: Int32, _ request: [UInt8], deadline: Double) throws(EtcdError) {
        var sent = 0
        while sent < request.count {
            guard MonotonicClock.seconds() < deadline else { throw .unreachable("timed out") }
            setTimeout(fd, SO_SNDTIMEO, deadline: deadline)
            let n = request[sent...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .unreachable(describe(errno)) }
            sent += n
        }
    }

    private static func setTimeout(_ fd: Int32, _ option: Int32, deadline: Double) {
        let left = max(0.001, deadline - MonotonicClock.seconds())
        var limit = timeval(tv_sec: Int(left), tv_usec: max(1_000, Int((left - left.rounded(.down)) * 1_000_000)))
        setsockopt(fd, SOL_SOCKET, option, &limit, socklen_t(MemoryLayout<timeval>.size))
    }

    static func describe(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused"
        case EAGAIN, EINPROGRESS, ETIMEDOUT: "timed out"
        case ECONNRESET, EPIPE: "connection lost"
        default: "socket error \(code)"
        }
    }
}

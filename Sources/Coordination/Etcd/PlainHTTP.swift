import Foundation
#if canImport(Glibc)
import Glibc
import Clocks
#endif

/// One HTTP/1.0 POST over a blocking socket, for `http://` endpoints. FoundationNetworking on Linux stops the
/// process ("Transfer completed, but there's no response") on every error answer of etcd's gateway, which comes
/// chunked with HTTP trailers; an HTTP/1.0 request gets the same answer unchunked, ended by closing the connection.
/// `https://` endpoints still go through URLSession (TLS).
enum PlainHTTP {
    struct Answer {
        var status: Int
        var body: Data
    }

    static let maxBytes = 16 << 20

    static func post(_ url: URL, headers: [(String, String)], body: Data, timeout: Double) async throws(EtcdError) -> Answer {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Answer, EtcdError>, Never>) in
            DispatchQueue.global().async {
                do throws(EtcdError) {
                    continuation.resume(returning: .success(try blockingPost(url, headers: headers, body: body, timeout: timeout)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    static func blockingPost(_ url: URL, headers: [(String, String)], body: Data, timeout: Double) throws(EtcdError) -> Answer {
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
        defer { close(fd) }
        // On Linux the send timeout bounds connect() too.
        var limit = timeval(tv_sec: Int(timeout), tv_usec: Int((timeout - timeout.rounded(.down)) * 1_000_000))
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
        guard connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else { throw .unreachable(describe(errno)) }

        var head = "POST \(url.path.isEmpty ? "/" : url.path) HTTP/1.0\r\nHost: \(host):\(port)\r\n"
        head += "Content-Type: application/json\r\nContent-Length: \(body.count)\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        let request = Array((head + "\r\n").utf8) + Array(body)
        var sent = 0
        while sent < request.count {
            let n = request[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { throw .unreachable(describe(errno)) }
            sent += n
        }

        let started = MonotonicClock.seconds()
        var response: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { break }
            if n < 0 {
                if errno == EINTR { continue }
                throw .unreachable(describe(errno))
            }
            response.append(contentsOf: buffer[0..<n])
            guard response.count <= maxBytes else { throw .malformed("answer over \(maxBytes) bytes") }
            if MonotonicClock.elapsed(since: started) > timeout { throw .unreachable("timed out") }
        }
        return try parse(response)
    }

    static func parse(_ bytes: [UInt8]) throws(EtcdError) -> Answer {
        let separator: [UInt8] = [13, 10, 13, 10]
        guard let end = (0...max(0, bytes.count - 4)).first(where: { bytes.count >= 4 && Array(bytes[$0..<($0 + 4)]) == separator }) else {
            throw .unreachable("the connection closed before a complete answer")
        }
        let head = String(decoding: bytes[..<end], as: UTF8.self)
        let parts = head.split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { throw .malformed("not an HTTP answer") }
        return Answer(status: status, body: Data(bytes[(end + 4)...]))
    }

    private static func describe(_ code: Int32) -> String {
        switch code {
        case ECONNREFUSED: "connection refused"
        case EAGAIN, EINPROGRESS, ETIMEDOUT: "timed out"
        case ECONNRESET, EPIPE: "connection lost"
        default: "socket error \(code)"
        }
    }
}

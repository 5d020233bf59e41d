#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A blocking TCP client for live tests: sends exact bytes, reads with a deadline.
final class RawClient {
    let fd: Int32

    init(port: Int, host: String = "127.0.0.1") throws {
        var hints = addrinfo()
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        var result: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &result) == 0, let info = result else {
            throw RawClientError.connect("resolve")
        }
        defer { freeaddrinfo(result) }
        fd = socket(info.pointee.ai_family, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0, connect(fd, info.pointee.ai_addr, info.pointee.ai_addrlen) == 0 else {
            let code = errno
            if fd >= 0 { Glibc.close(fd) }
            throw RawClientError.connect("errno \(code)")
        }
    }

    deinit { Glibc.close(fd) }

    func send(_ text: String) throws { try send(Array(text.utf8)) }

    func send(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { throw RawClientError.send(errno) }
            offset += n
        }
    }

    /// Reads until the server closes or `timeout` passes; returns what arrived and whether the peer closed.
    func readUntilClosed(timeout: Double = 5) -> (bytes: [UInt8], closed: Bool) {
        var received: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            guard let chunk = readChunk(timeoutMillis: Int32(max(1, deadline.timeIntervalSinceNow * 1000))) else { continue }
            if chunk.isEmpty { return (received, true) }
            received += chunk
        }
        return (received, false)
    }

    /// Reads until `count` complete responses (by Content-Length) have arrived, or the timeout.
    func readResponses(_ count: Int, timeout: Double = 5) -> [RawResponse] {
        var buffer: [UInt8] = []
        let deadline = Date().addingTimeInterval(timeout)
        while Date() < deadline {
            let parsed = RawResponse.parseAll(buffer)
            if parsed.count >= count { return parsed }
            guard let chunk = readChunk(timeoutMillis: Int32(max(1, deadline.timeIntervalSinceNow * 1000))) else { continue }
            if chunk.isEmpty { break }
            buffer += chunk
        }
        return RawResponse.parseAll(buffer)
    }

    /// nil on timeout, empty on EOF/reset.
    func readChunk(timeoutMillis: Int32) -> [UInt8]? {
        var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, timeoutMillis) > 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 65536)
        let n = buffer.withUnsafeMutableBytes { Glibc.recv(fd, $0.baseAddress, $0.count, 0) }
        return n <= 0 ? [] : Array(buffer[0..<n])
    }
}

enum RawClientError: Error {
    case connect(String)
    case send(Int32)
}

/// A response as bytes on the wire: status, headers in order, body by Content-Length.
struct RawResponse {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    var bodyString: String { String(decoding: body, as: UTF8.self) }

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Parses consecutive responses; 1xx interim responses are skipped. HEAD callers pass `bodyless`.
    static func parseAll(_ bytes: [UInt8], bodyless: Bool = false) -> [RawResponse] {
        var responses: [RawResponse] = []
        var index = 0
        while let end = find([13, 10, 13, 10], in: bytes, from: index) {
            let head = String(decoding: bytes[index..<end], as: UTF8.self)
            var lines = head.components(separatedBy: "\r\n")
            let statusLine = lines.removeFirst()
            let status = Int(statusLine.split(separator: " ")[1]) ?? 0
            let headers = lines.compactMap { line -> (String, String)? in
                guard let colon = line.firstIndex(of: ":") else { return nil }
                return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
            }
            let length = bodyless || status == 304 || status == 204 || status < 200
                ? 0 : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
            guard bytes.count >= end + 4 + length else { break }
            if status >= 200 {
                responses.append(RawResponse(status: status, headers: headers, body: Array(bytes[(end + 4)..<(end + 4 + length)])))
            }
            index = end + 4 + length
        }
        return responses
    }

    static func find(_ needle: [UInt8], in hay: [UInt8], from start: Int) -> Int? {
        guard hay.count >= needle.count + start else { return nil }
        var i = start
        while i <= hay.count - needle.count {
            if hay[i] == needle[0] && Array(hay[i..<(i + needle.count)]) == needle { return i }
            i += 1
        }
        return nil
    }
}

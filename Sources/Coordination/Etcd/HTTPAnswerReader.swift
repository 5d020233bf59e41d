import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Clocks

/// Reads HTTP/1.1 answers from a blocking socket: the head, then a body sized by `Content-Length`, sent chunked
/// (with or without trailers, as etcd's gateway sends its error answers) or ended by closing the connection.
/// Every read is bounded by a deadline on the monotonic clock, so an answer never takes longer than its caller allows.
struct HTTPAnswerReader {
    struct Head {
        var status: Int
        var chunked: Bool
        var contentLength: Int?
        /// Whether the connection may carry another request after this answer.
        var keepsAlive: Bool
    }

    let fd: Int32
    private(set) var buffer: [UInt8] = []
    private var start = 0
    /// Bytes received on this connection for this answer (0: the peer closed or failed before saying anything).
    private(set) var received = 0

    init(fd: Int32) { self.fd = fd }

    /// Receives more bytes before `deadline`; false when the peer closed the connection.
    mutating func fill(before deadline: Double) throws(EtcdError) -> Bool {
        if start > 65_536 {
            buffer.removeFirst(start)
            start = 0
        }
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let left = deadline - MonotonicClock.seconds()
            guard left > 0 else { throw .unreachable("timed out") }
            var limit = timeval(tv_sec: Int(left), tv_usec: max(1_000, Int((left - left.rounded(.down)) * 1_000_000)))
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &limit, socklen_t(MemoryLayout<timeval>.size))
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n == 0 { return false }
            if n < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN || errno == EWOULDBLOCK { continue }  // the deadline check above decides
                throw .unreachable(PlainHTTP.describe(errno))
            }
            received += n
            buffer.append(contentsOf: chunk[0..<n])
            guard buffer.count - start <= PlainHTTP.maxBytes else { throw .malformed("answer over \(PlainHTTP.maxBytes) bytes") }
            return true
        }
    }

    mutating func head(before deadline: Double) throws(EtcdError) -> Head {
        while true {
            if let line = try takeLine(terminator: [13, 10, 13, 10]) { return try Self.parseHead(line) }
            guard try fill(before: deadline) else { throw .unreachable("the connection closed before a complete answer") }
        }
    }

    /// The whole body of an answer with `head`.
    mutating func body(_ head: Head, before deadline: Double) throws(EtcdError) -> [UInt8] {
        if head.chunked {
            var body: [UInt8] = []
            while let chunk = try nextChunk(before: deadline) { body += chunk }
            return body
        }
        if let length = head.contentLength {
            guard length <= PlainHTTP.maxBytes else { throw .malformed("answer over \(PlainHTTP.maxBytes) bytes") }
            while buffer.count - start < length {
                guard try fill(before: deadline) else { throw .unreachable("the connection closed before a complete answer") }
            }
            defer { start += length }
            return Array(buffer[start..<(start + length)])
        }
        while try fill(before: deadline) {}
        defer { start = buffer.count }
        return Array(buffer[start...])
    }

    /// The next chunk of a chunked body, nil after the last one (its trailers read). A deadline passing mid-chunk
    /// leaves what was received in the buffer, so the caller may call again.
    mutating func nextChunk(before deadline: Double) throws(EtcdError) -> [UInt8]? {
        while true {
            if let chunk = try takeChunk() { return chunk.isEmpty ? nil : chunk }
            guard try fill(before: deadline) else { throw .unreachable("the connection closed inside a chunked answer") }
        }
    }

    /// A complete chunk from the buffer ([] for the last one, trailers included), or nil when more bytes are needed.
    private mutating func takeChunk() throws(EtcdError) -> [UInt8]? {
        guard let sizeEnd = find([13, 10], from: start) else { return nil }
        let sizeText = String(decoding: buffer[start..<sizeEnd], as: UTF8.self).split(separator: ";").first ?? ""
        guard let size = Int(sizeText.trimmingCharacters(in: .whitespaces), radix: 16), size >= 0 else { throw .malformed("a bad chunk size") }
        guard size <= PlainHTTP.maxBytes else { throw .malformed("answer over \(PlainHTTP.maxBytes) bytes") }
        if size == 0 {
            // Trailers, then an empty line.
            var at = sizeEnd + 2
            while true {
                guard let lineEnd = find([13, 10], from: at) else { return nil }
                if lineEnd == at {
                    start = lineEnd + 2
                    return []
                }
                at = lineEnd + 2
            }
        }
        let dataStart = sizeEnd + 2
        guard buffer.count >= dataStart + size + 2 else { return nil }
        start = dataStart + size + 2
        return Array(buffer[dataStart..<(dataStart + size)])
    }

    private mutating func takeLine(terminator: [UInt8]) throws(EtcdError) -> String? {
        guard let end = find(terminator, from: start) else { return nil }
        defer { start = end + terminator.count }
        return String(decoding: buffer[start..<end], as: UTF8.self)
    }

    private func find(_ needle: [UInt8], from: Int) -> Int? {
        guard buffer.count >= needle.count, from <= buffer.count - needle.count else { return nil }
        var index = from
        while index <= buffer.count - needle.count {
            if buffer[index] == needle[0], buffer[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }

    static func parseHead(_ text: String) throws(EtcdError) -> Head {
        let lines = text.split(separator: "\r\n", omittingEmptySubsequences: false)
        let parts = (lines.first ?? "").split(separator: " ", maxSplits: 2)
        guard parts.count >= 2, parts[0].hasPrefix("HTTP/"), let status = Int(parts[1]) else { throw .malformed("not an HTTP answer") }
        var head = Head(status: status, chunked: false, contentLength: nil, keepsAlive: parts[0] == "HTTP/1.1")
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces).lowercased()
            switch name {
            case "transfer-encoding": head.chunked = value.contains("chunked")
            case "content-length": head.contentLength = Int(value)
            case "connection": head.keepsAlive = value.contains("keep-alive") || (head.keepsAlive && !value.contains("close"))
            default: break
            }
        }
        if !head.chunked, head.contentLength == nil { head.keepsAlive = false }
        return head
    }
}

import Foundation
import Glibc
import Synchronization

/// A bare TCP server on 127.0.0.1 for responses our HTTP module cannot make: bodies streamed for as long as the
/// client keeps reading (an endless chunked body, a gzip bomb). Each connection gets a thread; its request head is
/// kept, then `respond` writes to it until it returns or the client goes away.
final class RawLoopbackServer: @unchecked Sendable {
    /// Writes to one connection; `write` returns false once the client has gone (or the server is stopping).
    struct Connection {
        fileprivate let fd: Int32
        fileprivate let server: RawLoopbackServer

        func write(_ bytes: [UInt8]) -> Bool {
            var offset = 0
            while offset < bytes.count {
                guard !server.stopping.load(ordering: .relaxed) else { return false }
                let sent = bytes.withUnsafeBytes { send(fd, $0.baseAddress! + offset, bytes.count - offset, Int32(MSG_NOSIGNAL)) }
                if sent < 0 && errno == EINTR { continue }
                guard sent > 0 else { return false }
                offset += sent
                server.sentBytes.add(sent, ordering: .relaxed)
            }
            return true
        }

        func write(_ text: String) -> Bool { write(Array(text.utf8)) }
    }

    private(set) var port = 0
    private let listener: Int32
    private let respond: @Sendable (Connection) -> Void
    private let heads = Mutex<[String]>([])
    fileprivate let stopping = Atomic<Bool>(false)
    fileprivate let sentBytes = Atomic<Int>(0)

    init(respond: @escaping @Sendable (Connection) -> Void) throws {
        self.respond = respond
        listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) == 0 && getsockname(listener, $0, &length) == 0 }
        }
        guard listener >= 0, bound, listen(listener, 16) == 0 else { throw POSIXError(.EADDRNOTAVAIL) }
        port = Int(UInt16(bigEndian: address.sin_port))
        Thread { [self] in acceptLoop() }.start()
    }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }
    /// Every request head received, in order (request line and header fields).
    var requestHeads: [String] { heads.withLock { $0 } }
    /// Body and head bytes written to clients so far.
    var bytesSent: Int { sentBytes.load(ordering: .relaxed) }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .relaxed) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else {
                if errno == EINTR { continue }
                return
            }
            Thread { [self] in serve(fd) }.start()
        }
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: [13, 10, 13, 10]) && head.count < 65_536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head += buffer[..<count]
        }
        heads.withLock { $0.append(String(decoding: head, as: UTF8.self)) }
        respond(Connection(fd: fd, server: self))
    }
}

private extension Array where Element == UInt8 {
    func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}

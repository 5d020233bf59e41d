import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Synchronization

/// A misbehaving leader on a raw loopback socket, for what our HTTP module will not send: a body that never
/// ends (no `Content-Length`, paced 64 KiB writes until the client hangs up) or one that trickles a byte at a time.
/// Until `misbehave()` it answers 304, so a follower starts out healthy.
final class StreamingLeader: @unchecked Sendable {
    enum Mode: Sendable {
        /// Paced like a fast network link: unpaced loopback in this same process would starve the follower
        /// of the cores it needs to drop what it no longer wants.
        case endless(bytesPerSecond: Int)
        case trickle(every: TimeInterval)
    }

    let port: Int
    private let listener: Int32
    private let mode: Mode
    private let stopping = Atomic<Bool>(false)
    private let misbehaving = Atomic<Bool>(false)
    private let connections = Mutex<[Int32]>([])

    init(_ mode: Mode) throws {
        self.mode = mode
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { generic in
                bind(fd, generic, length) == 0 && listen(fd, 8) == 0 && getsockname(fd, generic, &length) == 0
            }
        }
        guard bound else {
            close(fd)
            throw TestFailure("cannot listen on loopback: errno \(errno)")
        }
        listener = fd
        port = Int(UInt16(bigEndian: address.sin_port))
        let thread = Thread { [self] in acceptLoop() }
        thread.start()
    }

    var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

    func misbehave() { misbehaving.store(true, ordering: .relaxed) }

    func stop() {
        stopping.store(true, ordering: .relaxed)
        Glibc.shutdown(listener, Int32(SHUT_RDWR))
        for fd in connections.withLock({ $0 }) { Glibc.shutdown(fd, Int32(SHUT_RDWR)) }
    }

    private func acceptLoop() {
        while !stopping.load(ordering: .relaxed) {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { break }
            connections.withLock { $0.append(fd) }
            Thread { [self] in serve(fd) }.start()
        }
        close(listener)
    }

    private func serve(_ fd: Int32) {
        defer { close(fd) }
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !head.ends(with: Array("\r\n\r\n".utf8)) && head.count < 65_536 {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { return }
            head += buffer[0..<count]
        }
        guard misbehaving.load(ordering: .relaxed) else {
            _ = send(Array("HTTP/1.1 304 Not Modified\r\nConnection: close\r\n\r\n".utf8), to: fd)
            return
        }
        switch mode {
        case .endless(let rate):
            guard send(Array("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.petty.dataset\r\nConnection: close\r\n\r\n".utf8), to: fd) else { return }
            let chunk = [UInt8](repeating: 0x41, count: 64 * 1024)
            while !stopping.load(ordering: .relaxed), send(chunk, to: fd) {
                Thread.sleep(forTimeInterval: Double(chunk.count) / Double(rate))
            }
        case .trickle(let every):
            guard send(Array("HTTP/1.1 200 OK\r\nContent-Type: application/vnd.petty.dataset\r\nContent-Length: 10000000\r\n\r\n".utf8), to: fd) else { return }
            while !stopping.load(ordering: .relaxed), send([0x50], to: fd) { Thread.sleep(forTimeInterval: every) }
        }
    }

    private func send(_ bytes: [UInt8], to fd: Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }
}

extension Array where Element == UInt8 {
    fileprivate func ends(with suffix: [UInt8]) -> Bool { count >= suffix.count && Array(self[(count - suffix.count)...]) == suffix }
}

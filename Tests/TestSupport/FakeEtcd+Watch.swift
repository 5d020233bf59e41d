import Foundation
import Glibc
import Synchronization

/// The fake's front when it watches: each connection's first request decides. `POST /v3/watch` is streamed here as
/// etcd's gateway streams it (a chunked answer, one JSON line per message: the watch created, then the events of
/// each revision from the start revision on, or a compaction that cancels it); anything else is passed, bytes both
/// ways, to the fake's gateway on `gateway`.
final class WatchFront: Sendable {
    let listener: Int32
    let port: Int
    let gateway: Int
    let etcd: FakeEtcd
    private let open = Mutex<Set<Int32>>([])
    private let stopped = Atomic(false)

    init(etcd: FakeEtcd, gateway: Int) throws {
        self.etcd = etcd
        self.gateway = gateway
        let (fd, port) = try Self.listen()
        listener = fd
        self.port = port
        Thread { [self] in
            while !stopped.load(ordering: .relaxed) {
                let client = accept(listener, nil, nil)
                guard client >= 0 else { return }
                track(client)
                Thread { self.serve(client) }.start()
            }
        }.start()
    }

    func stop() {
        stopped.store(true, ordering: .relaxed)
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
        open.withLock { for fd in $0 { shutdown(fd, Int32(SHUT_RDWR)) } }
    }

    private func track(_ fd: Int32) { open.withLock { _ = $0.insert(fd) } }

    private func finish(_ fd: Int32) {
        open.withLock { _ = $0.remove(fd) }
        close(fd)
    }

    private func serve(_ client: Int32) {
        var buffer: [UInt8] = []
        var headEnd: Range<Int>?
        while headEnd == nil {
            guard Self.receive(client, into: &buffer) else { return finish(client) }
            headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8))
        }
        let head = String(decoding: buffer[..<headEnd!.lowerBound], as: UTF8.self)
        if head.hasPrefix("POST /v3/watch ") {
            buffer.removeFirst(headEnd!.upperBound)
            let length = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("content-length:") }
                .flatMap { Int($0.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) } ?? 0
            while buffer.count < length { guard Self.receive(client, into: &buffer) else { return finish(client) } }
            let token = head.split(separator: "\r\n").first { $0.lowercased().hasPrefix("authorization:") }
                .map { $0.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: .whitespaces) }
            watch(client, body: Array(buffer[..<length]), token: token)
        } else {
            pass(client, buffer)
        }
        finish(client)
    }

    // MARK: - The watch

    private func watch(_ fd: Int32, body: [UInt8], token: String?) {
        let object = (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:]
        let create = object["create_request"] as? [String: Any] ?? [:]
        let start = FakeEtcd.text(create["key"]), end = FakeEtcd.text(create["range_end"])
        let (from, drops, refused, compacted) = etcd.state.withLock { state -> (Int64, Int, Bool, Int64) in
            state.calls.append("watch")
            let from = FakeEtcd.int(create["start_revision"])
            state.watchStarts.append(from)
            let refused = state.user != nil && !(token.map(state.tokens.contains) ?? false)
            return (from == 0 ? state.revision + 1 : from, state.watchDrops, refused, state.compactedAt)
        }
        guard Self.write(fd, "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n\r\n") else { return }
        if refused {
            _ = message(fd, ["error": ["code": 16, "message": "etcdserver: invalid auth token"] as [String: Any]])
            return
        }
        guard message(fd, ["result": ["header": etcd.state.withLock { FakeEtcd.header($0) }, "created": true] as [String: Any]]) else { return }
        if from <= compacted {
            _ = message(fd, ["result": ["header": etcd.state.withLock { FakeEtcd.header($0) }, "compact_revision": String(compacted), "canceled": true] as [String: Any]])
            return
        }
        var next = from
        while !stopped.load(ordering: .relaxed) {
            let (batches, dropped) = etcd.state.withLock { state -> ([(Int64, [[String: Any]], [String: Any])], Bool) in
                let due = state.history.filter { $0.revision >= next && $0.key >= start && $0.key < end }
                let revisions = Array(Set(due.map(\.revision))).sorted()
                let batches = revisions.map { revision in
                    (revision, due.filter { $0.revision == revision }.map { change -> [String: Any] in
                        guard let entry = change.entry, entry.modRevision == revision else {
                            return ["type": "DELETE", "kv": ["key": Data(change.key.utf8).base64EncodedString(), "mod_revision": String(revision)]]
                        }
                        return ["kv": FakeEtcd.kv(change.key, entry)]
                    }, FakeEtcd.header(state))
                }
                return (batches, state.watchDrops != drops)
            }
            if dropped { return }
            for (revision, events, header) in batches {
                guard message(fd, ["result": ["header": header, "events": events] as [String: Any]]) else { return }
                next = revision + 1
            }
            // The client closed its end.
            var probe: UInt8 = 0
            if recv(fd, &probe, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) == 0 { return }
            usleep(2_000)
        }
    }

    private func message(_ fd: Int32, _ object: [String: Any]) -> Bool {
        let line = Array((try? JSONSerialization.data(withJSONObject: object)) ?? Data()) + [0x0A]
        return Self.write(fd, String(line.count, radix: 16) + "\r\n") && Self.write(fd, line) && Self.write(fd, "\r\n")
    }

    // MARK: - Everything else

    /// Passes bytes both ways between the client and the gateway until either closes. Both directions end before
    /// either socket is closed, so neither touches a descriptor number already reused by another connection.
    private func pass(_ client: Int32, _ first: [UInt8]) {
        guard let upstream = try? Self.connect(gateway) else { return }
        track(upstream)
        guard Self.write(upstream, first) else { return finish(upstream) }
        let backDone = DispatchSemaphore(value: 0)
        Thread {
            var bytes: [UInt8] = []
            while Self.receive(upstream, into: &bytes), Self.write(client, bytes) { bytes = [] }
            shutdown(client, Int32(SHUT_RDWR))
            backDone.signal()
        }.start()
        var bytes: [UInt8] = []
        while Self.receive(client, into: &bytes), Self.write(upstream, bytes) { bytes = [] }
        shutdown(upstream, Int32(SHUT_RDWR))
        backDone.wait()
        finish(upstream)
    }

    // MARK: - Sockets

    private static func receive(_ fd: Int32, into buffer: inout [UInt8]) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer += chunk[0..<n]
        return true
    }

    private static func write(_ fd: Int32, _ text: String) -> Bool { write(fd, Array(text.utf8)) }

    private static func write(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    private static func address(_ port: Int) -> sockaddr_in {
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return address
    }

    private static func listen() throws -> (Int32, Int) {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = address(0)
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard bound, Glibc.listen(fd, 64) == 0 else { throw POSIXError(.EADDRINUSE) }
        return (fd, Int(UInt16(bigEndian: address.sin_port)))
    }

    private static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = address(port)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
        guard connected else {
            close(fd)
            throw POSIXError(.ECONNREFUSED)
        }
        return fd
    }
}

import Foundation
import Glibc
import Synchronization
import TestSupport
import Testing
import Clocks
@testable import Coordination

/// Keep-alives as messages of one held-open `/v3/lease/keepalive` stream, against a loopback gateway that streams
/// as etcd's does (deploy/test/fleet.sh runs them against the real one).
@Suite(.serialized, .timeLimit(.minutes(1)))
struct LeaseKeepAliveStreamTests {
    /// Answers `/v3/lease/keepalive` the way etcd's gateway does over HTTP/1.1: `100 Continue`, then for each JSON
    /// object of the chunked request body one line of a chunked answer (the head before the first). Like the Go
    /// server under it, it holds every answer back unless the request said `Expect: 100-continue`.
    final class StreamingGateway: Sendable {
        let listener: Int32
        let port: Int
        let leases: Set<Int64>
        let connections = Atomic(0)
        let messages = Atomic(0)
        let heads = Mutex<[String]>([])

        init(leases: Set<Int64>) throws {
            self.leases = leases
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            var length = socklen_t(MemoryLayout<sockaddr_in>.size)
            let bound = withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
            }
            guard bound, listen(fd, 8) == 0 else { throw EtcdError.unreachable("no listener") }
            listener = fd
            port = Int(UInt16(bigEndian: address.sin_port))
            let thread = Thread { [self] in
                while true {
                    let fd = accept(listener, nil, nil)
                    guard fd >= 0 else { return }
                    connections.add(1, ordering: .relaxed)
                    Thread { self.serve(fd) }.start()
                }
            }
            thread.start()
        }

        var url: URL { URL(string: "http://127.0.0.1:\(port)")! }

        func stop() { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

        private func serve(_ fd: Int32) {
            defer { close(fd) }
            var buffer: [UInt8] = []
            func fill() -> Bool {
                var chunk = [UInt8](repeating: 0, count: 4096)
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { return false }
                buffer += chunk[0..<n]
                return true
            }
            func write(_ text: String) { _ = Array(text.utf8).withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
            var headEnd: Range<Int>?
            while headEnd == nil {
                guard fill() else { return }
                headEnd = buffer.firstRange(of: Array("\r\n\r\n".utf8))
            }
            let head = String(decoding: buffer[..<headEnd!.lowerBound], as: UTF8.self)
            heads.withLock { $0.append(head) }
            buffer.removeFirst(headEnd!.upperBound)
            guard head.lowercased().contains("expect: 100-continue") else {
                while fill() {}
                return
            }
            write("HTTP/1.1 100 Continue\r\n\r\n")
            var answered = false
            while true {
                // One chunk: size line, data, CRLF.
                guard let sizeEnd = buffer.firstRange(of: [13, 10]) else {
                    guard fill() else { return }
                    continue
                }
                let size = Int(String(decoding: buffer[..<sizeEnd.lowerBound], as: UTF8.self), radix: 16) ?? 0
                guard size > 0 else { return }
                while buffer.count < sizeEnd.upperBound + size + 2 { guard fill() else { return } }
                let data = Data(buffer[sizeEnd.upperBound..<(sizeEnd.upperBound + size)])
                buffer.removeFirst(sizeEnd.upperBound + size + 2)
                messages.add(1, ordering: .relaxed)
                let id = ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?["ID"] as? String ?? "0"
                let ttl = leases.contains(Int64(id) ?? 0) ? #","TTL":"5""# : ""
                let line = #"{"result":{"header":{"cluster_id":"7","revision":"3"},"ID":"\#(id)"\#(ttl)}}"# + "\n"
                if !answered {
                    write("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\nTransfer-Encoding: chunked\r\n\r\n")
                    answered = true
                }
                write(String(line.utf8.count, radix: 16) + "\r\n" + line + "\r\n")
            }
        }
    }

    @Test func keepAlivesAreMessagesOfOneStream() async throws {
        let gateway = try StreamingGateway(leases: [42])
        defer { gateway.stop() }
        let client = EtcdClient(endpoints: [gateway.url], timeout: 1)
        for _ in 0..<4 { #expect(try await client.keepAlive(42) == 5) }
        #expect(gateway.connections.load(ordering: .relaxed) == 1)
        #expect(gateway.messages.load(ordering: .relaxed) == 4)
        #expect(client.clusterID == "7")
        let head = try #require(gateway.heads.withLock { $0.first })
        #expect(head.hasPrefix("POST /v3/lease/keepalive HTTP/1.1"))
        #expect(head.contains("Grpc-Metadata-Hasleader: true"))
    }

    @Test func aLeaseEtcdNoLongerHasIsAnsweredWithoutTTLOnTheStream() async throws {
        let gateway = try StreamingGateway(leases: [42])
        defer { gateway.stop() }
        let client = EtcdClient(endpoints: [gateway.url], timeout: 1)
        #expect(try await client.keepAlive(42) == 5)
        #expect(try await client.keepAlive(43) == 0)
        #expect(gateway.connections.load(ordering: .relaxed) == 1)
    }

    /// A gateway that answers no stream (the fake's server reads a whole body first) costs one timeout; then
    /// keep-alives are requests, each answered at once.
    @Test func aGatewayThatDoesNotStreamGetsKeepAlivesAsRequests() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url], timeout: 1)
        let lease = try await client.grant(ttl: 5)
        #expect(try await client.keepAlive(lease.id) == 5)
        let started = MonotonicClock.seconds()
        #expect(try await client.keepAlive(lease.id) == 5)
        #expect(MonotonicClock.seconds() - started < 0.5)
        #expect(etcd.calls.filter { $0 == "lease/keepalive" }.count == 2)
    }
}

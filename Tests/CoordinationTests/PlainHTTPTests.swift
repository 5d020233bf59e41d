import Foundation
import Glibc
import TestSupport
import Testing
import Clocks
@testable import Coordination

/// The hand-written HTTP/1.1 client etcd's gateway is reached by over http://.
@Suite(.serialized, .timeLimit(.minutes(1)))
struct PlainHTTPTests {
    /// Bytes written to one end of a socket pair, read back by `HTTPAnswerReader` from the other.
    func read(_ raw: String, deadline: Double = 2) throws -> (HTTPAnswerReader.Head, String) {
        var fds: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        let bytes = Array(raw.utf8)
        #expect(bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) } == bytes.count)
        var reader = HTTPAnswerReader(fd: fds[0])
        let until = MonotonicClock.seconds() + deadline
        let head = try reader.head(before: until)
        return (head, String(decoding: try reader.body(head, before: until), as: UTF8.self))
    }

    @Test func aChunkedAnswerWithTrailersIsReadWhole() throws {
        let (head, body) = try read(
            "HTTP/1.1 401 Unauthorized\r\nContent-Type: application/json\r\nTrailer: Grpc-Status\r\nTransfer-Encoding: chunked\r\n\r\n"
                + "7\r\n{\"a\":1,\r\n8\r\n\"b\":22}\n\r\n0\r\nGrpc-Status: 16\r\n\r\n")
        #expect(head.status == 401)
        #expect(head.keepsAlive)
        #expect(body == "{\"a\":1,\"b\":22}\n")
    }

    @Test func aSizedAnswerIsReadToItsLengthAndAnHTTP10OneIsNotKept() throws {
        let (head, body) = try read("HTTP/1.1 200 OK\r\nContent-Length: 5\r\n\r\nhello")
        #expect(head.status == 200 && head.keepsAlive && body == "hello")
        let (old, _) = try read("HTTP/1.0 200 OK\r\nContent-Length: 2\r\n\r\nok")
        #expect(!old.keepsAlive)
        let (closing, _) = try read("HTTP/1.1 200 OK\r\nConnection: close\r\nContent-Length: 2\r\n\r\nok")
        #expect(!closing.keepsAlive)
    }

    @Test func anAnswerThatNeverEndsTimesOutAtTheDeadline() throws {
        let started = MonotonicClock.seconds()
        #expect(throws: EtcdError.unreachable("timed out")) {
            _ = try read("HTTP/1.1 200 OK\r\nContent-Length: 50\r\n\r\nshort", deadline: 0.3)
        }
        #expect(MonotonicClock.seconds() - started < 1.5)
    }

    /// Calls reuse one kept-alive connection instead of a new one each (issue 46 item 8).
    @Test func callsReuseOneConnection() async throws {
        let etcd = try FakeEtcd().start()
        defer { etcd.stop() }
        let client = EtcdClient(endpoints: [etcd.url])
        for n in 0..<5 { try await client.put(EtcdPut(key: "/k\(n)", value: Array("v".utf8))) }
        _ = try await client.range(prefix: "/k")
        #expect(etcd.openConnections == 1)
    }
}

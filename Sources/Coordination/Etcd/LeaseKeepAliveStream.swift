import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Clocks

/// Lease keep-alives as etcd's own clients send them: one `LeaseKeepAlive` stream held open, one message per
/// keep-alive, instead of one gateway request (and one gRPC call inside etcd) each. The JSON gateway streams it
/// over HTTP/1.1: a chunked request body of JSON objects, a chunked answer of one line per keep-alive. The request
/// must say `Expect: 100-continue`; without it the gateway's Go server holds the first answer back while it waits
/// for the rest of the body. `Grpc-Metadata-Hasleader: true` (clientv3's `WithRequireLeader`) has etcd cancel the
/// stream when its member loses the cluster's leader, so keep-alives move to a member that has one.
///
/// Keep-alives go one at a time, each answered (or failed) before the next is sent, so an answer always belongs to
/// the keep-alive just sent. Any failure closes the stream; the caller sends that keep-alive as a request instead.
final class LeaseKeepAliveStream: Sendable {
    private struct Session {
        var endpoint: String
        var fd: Int32
        var reader: HTTPAnswerReader
        var headRead = false
        var pending: [UInt8] = []
    }

    /// What one keep-alive on the stream was answered with.
    struct Answer: Equatable {
        /// The TTL left, 0 when the lease no longer exists.
        var ttl: Int64
        var clusterID: String?
    }

    private let session = Mutex<Session?>(nil)

    init() {}

    deinit {
        session.withLock { if let open = $0 { Glibc.close(open.fd) } }
    }

    func keepAlive(_ lease: Int64, on url: URL, token: String?, timeout: Double) async throws(EtcdError) -> Answer {
        let result = await withCheckedContinuation { (continuation: CheckedContinuation<Result<Answer, EtcdError>, Never>) in
            DispatchQueue.global().async {
                do throws(EtcdError) {
                    continuation.resume(returning: .success(try self.blockingKeepAlive(lease, on: url, token: token, timeout: timeout)))
                } catch {
                    continuation.resume(returning: .failure(error))
                }
            }
        }
        return try result.get()
    }

    private func blockingKeepAlive(_ lease: Int64, on url: URL, token: String?, timeout: Double) throws(EtcdError) -> Answer {
        let deadline = MonotonicClock.seconds() + timeout
        let endpoint = PlainHTTP.endpointKey(url)
        var current: Session
        let open = session.withLock { $0.take() }
        if let open, open.endpoint == endpoint {
            current = open
        } else {
            if let open { Glibc.close(open.fd) }
            let fd = try PlainHTTP.connect(url, deadline: deadline)
            current = Session(endpoint: endpoint, fd: fd, reader: HTTPAnswerReader(fd: fd))
            do { try PlainHTTP.send(fd, Self.head(url, token: token), deadline: deadline) } catch {
                Glibc.close(fd)
                throw error
            }
        }
        do {
            let answer = try exchange(lease, &current, deadline: deadline)
            let kept = session.withLock { slot -> Bool in
                guard slot == nil else { return false }
                slot = current
                return true
            }
            if !kept { Glibc.close(current.fd) }
            return answer
        } catch {
            Glibc.close(current.fd)
            throw error
        }
    }

    private func exchange(_ lease: Int64, _ session: inout Session, deadline: Double) throws(EtcdError) -> Answer {
        let message = Array("{\"ID\":\"\(lease)\"}\n".utf8)
        try PlainHTTP.send(session.fd, Array(String(message.count, radix: 16).utf8) + [13, 10] + message + [13, 10], deadline: deadline)
        while !session.headRead {
            let head = try session.reader.head(before: deadline)
            if head.status == 100 { continue }
            guard head.status == 200, head.chunked else { throw .unreachable("the keep-alive stream answered HTTP \(head.status)") }
            session.headRead = true
        }
        while true {
            if let newline = session.pending.firstIndex(of: 0x0A) {
                let line = Data(session.pending[..<newline])
                session.pending.removeFirst(newline + 1)
                if line.isEmpty { continue }
                return try Self.answer(line, lease: lease)
            }
            guard let chunk = try session.reader.nextChunk(before: deadline) else { throw .unreachable("the keep-alive stream ended") }
            session.pending += chunk
            guard session.pending.count <= PlainHTTP.maxBytes else { throw .malformed("a streamed message over \(PlainHTTP.maxBytes) bytes") }
        }
    }

    static func answer(_ line: Data, lease: Int64) throws(EtcdError) -> Answer {
        let object: ProtoJSON.Object
        do { object = try ProtoJSON.decode(line) } catch { throw .malformed("a keep-alive answer that is not JSON") }
        if let error = object["error"] as? ProtoJSON.Object {
            throw .unreachable("the keep-alive stream failed: \(error["message"] ?? error["error"] ?? "an error")")
        }
        let result = object["result"] as? ProtoJSON.Object ?? [:]
        guard ProtoJSON.int64(result["ID"]) == lease else { throw .malformed("a keep-alive answer for another lease") }
        let cluster = (result["header"] as? ProtoJSON.Object)?["cluster_id"].map { "\($0)" }
        return Answer(ttl: ProtoJSON.int64(result["TTL"]), clusterID: cluster)
    }

    static func head(_ url: URL, token: String?) -> [UInt8] {
        var head = "POST /v3/lease/keepalive HTTP/1.1\r\nHost: \(url.host ?? "127.0.0.1"):\(url.port ?? 80)\r\n"
        head += "Content-Type: application/json\r\nTransfer-Encoding: chunked\r\nExpect: 100-continue\r\nGrpc-Metadata-Hasleader: true\r\n"
        if let token { head += "Authorization: \(token)\r\n" }
        return Array((head + "\r\n").utf8)
    }
}

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif
import Clocks

/// A key put (with its new value) or deleted, as a watch reports it; a deletion's `kv` has the key and the
/// revision of the deletion (`modRevision`) only.
public struct EtcdWatchEvent: Equatable, Sendable {
    public var kv: EtcdKeyValue
    public var deleted: Bool
}

/// How one wait on the watch ended.
public enum EtcdWatchOutcome: Sendable, Equatable {
    /// Keys in the range changed, in revision order (the stream stays open for the next wait).
    case events([EtcdWatchEvent])
    /// Nothing changed for the whole wait.
    case quiet
    /// The caller's wake condition held.
    case woken
    /// The watch cannot go on from where it was: etcd compacted the revisions it needs, or answered as another
    /// cluster or at an older revision (etcd rebuilt). Read the range again, then `follow(after:)` that read.
    case lost(String)
    /// No wait was possible (not started, an https endpoint, a gateway without watch, an error, no connection):
    /// poll; the next wait resumes where this one stopped.
    case failed(String)
}

/// One `/v3/watch` stream of etcd's JSON gateway held open across waits, as etcd's own clients hold a watch:
/// a change reaches the member as a message on it, not as a new request. It starts after a read's revision
/// (`follow(after:)`); if it drops, it is opened again from the revision after the last event seen (once within a
/// wait), on the client's current endpoint (a call that failed over moves the watch with it). Over https
/// (URLSession cannot stream here) every wait fails at once: the caller polls.
public final class EtcdWatchStream: Sendable {
    private struct Session {
        var endpoint: String
        var fd: Int32
        var reader: HTTPAnswerReader
        var pending: [UInt8] = []
    }

    private struct Position {
        /// The first revision the watch has not reported (0: not started; `follow(after:)` first).
        var next: Int64 = 0
        /// The cluster the watch's answers came from.
        var clusterID: String?
    }

    let client: EtcdClient
    let start: String
    let end: String
    private let session = Mutex<Session?>(nil)
    private let position = Mutex(Position())

    /// Watches the keys from `start` (included) to `end` (excluded).
    public init(client: EtcdClient, from start: String, to end: String) {
        self.client = client
        self.start = start
        self.end = end
    }

    deinit { close() }

    /// The revision the next (re)opened stream starts at; nil before `follow(after:)` or after a loss.
    public var resumesAt: Int64? { position.withLock { $0.next > 0 ? $0.next : nil } }

    /// After a read of the range at `revision`: starts the watch just after it unless one already runs from no later
    /// (events it then reports at or before `revision` are already in the read). A watch ahead of the read (etcd's
    /// revisions went back: rebuilt) starts again.
    public func follow(after revision: Int64) {
        let restart = position.withLock { position -> Bool in
            guard position.next == 0 || position.next > revision + 1 else { return false }
            position.next = revision + 1
            position.clusterID = nil
            return true
        }
        if restart { close() }
    }

    /// Closes the stream; the next wait opens it again from where it stopped.
    public func close() {
        session.withLock { open in
            if let fd = open?.fd { Glibc.close(fd) }
            open = nil
        }
    }

    /// Waits at most `seconds` for changes, asking `wake` every `slice` seconds.
    public func next(upTo seconds: Double, slice: Double = 0.25, wake: @escaping @Sendable () -> Bool) async -> EtcdWatchOutcome {
        let cancelled = Atomic(false)
        let until = MonotonicClock.seconds() + seconds
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<EtcdWatchOutcome, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(returning: self.blockingNext(until: until, slice: slice) { cancelled.load(ordering: .relaxed) || wake() })
                }
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
    }

    private func blockingNext(until: Double, slice: Double, wake: () -> Bool) -> EtcdWatchOutcome {
        let endpoint = client.currentEndpoint
        guard endpoint.scheme?.lowercased() == "http" else { return .failed("watching needs an http endpoint") }
        guard position.withLock({ $0.next }) > 0 else { return .failed("the watch has not started") }
        var current = session.withLock { $0.take() }
        if let open = current, open.endpoint != PlainHTTP.endpointKey(endpoint) {
            Glibc.close(open.fd)
            current = nil
        }
        var reopened = false
        while true {
            do throws(EtcdError) {
                if current == nil {
                    reopened = true
                    current = try open(endpoint)
                }
                let outcome = try read(&current!, until: until, slice: slice, wake: wake)
                if case .lost = outcome {
                    Glibc.close(current!.fd)
                    position.withLock { $0 = Position() }
                    return outcome
                }
                let kept = session.withLock { slot -> Bool in
                    guard slot == nil else { return false }
                    slot = current
                    return true
                }
                if !kept { Glibc.close(current!.fd) }
                return outcome
            } catch {
                if let open = current { Glibc.close(open.fd) }
                current = nil
                // A stream that dropped is opened again at once, from the revision after the last event seen.
                guard !reopened, MonotonicClock.seconds() < until else { return .failed(error.description) }
            }
        }
    }

    /// Connects and asks for the watch from the next revision; the answer's head is read here.
    private func open(_ endpoint: URL) throws(EtcdError) -> Session {
        let from = position.withLock { $0.next }
        let create: ProtoJSON.Object = [
            "key": ProtoJSON.base64(start), "range_end": ProtoJSON.base64(end), "start_revision": ProtoJSON.int64String(from),
        ]
        let body: Data
        do { body = try ProtoJSON.encode(["create_request": create]) } catch { throw .malformed("request not encodable") }
        // clientv3's `WithRequireLeader`: etcd ends the watch when its member loses the cluster's leader.
        let headers: [(String, String)] = [("Grpc-Metadata-Hasleader", "true")] + (client.heldToken.map { [("Authorization", $0)] } ?? [])
        let deadline = MonotonicClock.seconds() + client.timeout
        let fd = try PlainHTTP.connect(endpoint, deadline: deadline)
        var reader = HTTPAnswerReader(fd: fd)
        do throws(EtcdError) {
            try PlainHTTP.send(fd, PlainHTTP.request(endpoint.appendingPathComponent("v3/watch"), headers: headers, body: body, keepAlive: false), deadline: deadline)
            let head = try reader.head(before: deadline)
            guard head.status == 200, head.chunked else { throw EtcdError.unreachable("the watch answered HTTP \(head.status)") }
        } catch {
            Glibc.close(fd)
            throw error
        }
        return Session(endpoint: PlainHTTP.endpointKey(endpoint), fd: fd, reader: reader)
    }

    /// Reads the stream's messages until one reports changes or the wait ends.
    private func read(_ session: inout Session, until: Double, slice: Double, wake: () -> Bool) throws(EtcdError) -> EtcdWatchOutcome {
        while true {
            while let newline = session.pending.firstIndex(of: 0x0A) {
                let line = Data(session.pending[..<newline])
                session.pending.removeFirst(newline + 1)
                if line.isEmpty { continue }
                if let outcome = try message(line) { return outcome }
            }
            let now = MonotonicClock.seconds()
            if now >= until { return .quiet }
            if wake() { return .woken }
            let chunk: [UInt8]?
            do { chunk = try session.reader.nextChunk(before: min(until, now + slice)) } catch {
                if case .unreachable("timed out") = error { continue }
                throw error
            }
            guard let chunk else { throw .unreachable("the watch ended") }
            session.pending += chunk
            guard session.pending.count <= PlainHTTP.maxBytes else { throw .malformed("a streamed message over \(PlainHTTP.maxBytes) bytes") }
        }
    }

    /// What one message of the stream means: nil for one that changes nothing (the watch created).
    private func message(_ line: Data) throws(EtcdError) -> EtcdWatchOutcome? {
        let object: ProtoJSON.Object
        do { object = try ProtoJSON.decode(line) } catch { throw .malformed("a watch message that is not JSON") }
        if let error = object["error"] as? ProtoJSON.Object { throw .unreachable("the watch failed: \(error["message"] ?? "an error")") }
        let result = object["result"] as? ProtoJSON.Object ?? [:]
        let header = result["header"] as? ProtoJSON.Object ?? [:]
        let cluster = header["cluster_id"].map { "\($0)" }
        let revision = ProtoJSON.int64(header["revision"])
        let problem = position.withLock { position -> String? in
            if let cluster, !cluster.isEmpty {
                if let known = position.clusterID, known != cluster { return "etcd's cluster id changed (\(known) -> \(cluster))" }
                position.clusterID = cluster
            }
            if revision > 0, revision < position.next - 1 { return "etcd is at revision \(revision), before the \(position.next - 1) watched" }
            return nil
        }
        if let problem { return .lost(problem) }
        let compacted = ProtoJSON.int64(result["compact_revision"])
        if compacted > 0 { return .lost("etcd compacted its history to revision \(compacted)") }
        if ProtoJSON.bool(result["canceled"]) { throw .unreachable("the watch was cancelled: \(result["cancel_reason"] ?? "no reason given")") }
        var events: [EtcdWatchEvent] = []
        for event in ProtoJSON.objects(result["events"]) {
            guard let kv = try EtcdClient.keyValues([event["kv"] ?? [:]]).first else { continue }
            let type = event["type"]
            events.append(EtcdWatchEvent(kv: kv, deleted: type as? String == "DELETE" || ProtoJSON.int64(type) == 1))
        }
        guard let last = events.last else { return nil }
        position.withLock { $0.next = max($0.next, last.kv.modRevision + 1) }
        return .events(events)
    }
}

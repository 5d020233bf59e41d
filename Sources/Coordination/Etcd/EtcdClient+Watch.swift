import Foundation
import Synchronization
import Clocks

/// How a wait for a change of some keys ended.
public enum EtcdChangeWait: Sendable, Equatable {
    /// A key in the range changed after the revision, or etcd compacted past it: read again.
    case changed
    /// Nothing changed for the whole wait.
    case quiet
    /// The caller's wake condition held.
    case woken
    /// No wait was possible (an https endpoint, a gateway without watch, an error, the connection lost).
    case failed(String)
}

extension EtcdClient {
    /// Waits at most `seconds` for a key from `start` to `end` to change after `revision`, on one `/v3/watch`
    /// stream of the gateway to the current endpoint, closed when the wait ends. `wake` is asked every `slice`
    /// seconds. Over https (URLSession cannot stream here) the answer is `.failed` at once: the caller polls.
    public func waitForChange(
        from start: String, to end: String, after revision: Int64, upTo seconds: Double, slice: Double = 0.25,
        wake: @escaping @Sendable () -> Bool
    ) async -> EtcdChangeWait {
        let endpoint = currentEndpoint
        guard endpoint.scheme?.lowercased() == "http" else { return .failed("watching needs an http endpoint") }
        let create: ProtoJSON.Object = [
            "key": ProtoJSON.base64(start), "range_end": ProtoJSON.base64(end), "start_revision": ProtoJSON.int64String(revision + 1),
        ]
        guard let body = try? ProtoJSON.encode(["create_request": create]) else { return .failed("request not encodable") }
        // clientv3's `WithRequireLeader`: etcd ends the watch when its member loses the cluster's leader.
        let headers: [(String, String)] = [("Grpc-Metadata-Hasleader", "true")] + (heldToken.map { [("Authorization", $0)] } ?? [])
        let url = endpoint.appendingPathComponent("v3/watch")
        let connectTimeout = timeout
        let cancelled = Atomic(false)
        let until = MonotonicClock.seconds() + seconds
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<EtcdChangeWait, Never>) in
                DispatchQueue.global().async {
                    continuation.resume(returning: Self.blockingWait(
                        url, headers: headers, body: body, connectTimeout: connectTimeout, until: until, slice: slice,
                        wake: { cancelled.load(ordering: .relaxed) || wake() }))
                }
            }
        } onCancel: {
            cancelled.store(true, ordering: .relaxed)
        }
    }

    private static func blockingWait(
        _ url: URL, headers: [(String, String)], body: Data, connectTimeout: Double, until: Double, slice: Double, wake: () -> Bool
    ) -> EtcdChangeWait {
        do {
            let (status, end) = try PlainHTTP.stream(
                url, headers: headers, body: body, connectTimeout: connectTimeout, until: until, slice: slice, wake: wake
            ) { (line: Data) throws(EtcdError) -> Bool in
                let object: ProtoJSON.Object
                do { object = try ProtoJSON.decode(line) } catch { throw .malformed("a watch message that is not JSON") }
                if let error = object["error"] as? ProtoJSON.Object { throw .server(code: Int(ProtoJSON.int64(error["code"])), message: "\(error["message"] ?? "")") }
                let result = object["result"] as? ProtoJSON.Object ?? [:]
                return ProtoJSON.bool(result["canceled"]) || ProtoJSON.int64(result["compact_revision"]) > 0 || !ProtoJSON.objects(result["events"]).isEmpty
            }
            guard status == 200 else { return .failed("HTTP \(status)") }
            switch end {
            case .stopped: return .changed
            case .expired: return .quiet
            case .woken: return .woken
            case .ended: return .failed("the watch ended")
            }
        } catch {
            return .failed(error.description)
        }
    }
}

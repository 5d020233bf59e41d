import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One bounded conditional GET of the leader's dataset. The body is counted as it arrives and the transfer
/// abandoned past `limits.maxBytes`; a timer abandons it at `limits.deadline` however slowly bytes trickle in
/// (the session's own timeout only bounds the gap between two reads). Asking for `identity` keeps the counted
/// bytes equal to the wire bytes.
///
/// On Linux a `cancel()` can take seconds to reach libcurl while a fast sender keeps streaming, so an abandoned
/// transfer answers its caller at once, drops every later byte, and no new transfer starts until it has ended.
final class DatasetDownloader: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Outcome {
        case notModified
        case dataset(body: [UInt8], etag: String?)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private struct Transfer {
        /// Nil once the caller has its answer; the transfer is then only draining.
        var continuation: CheckedContinuation<Result<Outcome, Failure>, Never>?
        var body = Data()
        var response: HTTPURLResponse?
    }

    let limits: FollowLimits
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    /// Why the last transfer was abandoned, repeated while it drains.
    private var abandonedBecause: Failure?
    private var invalidated = false
    private var session: URLSession!

    init(limits: FollowLimits) {
        self.limits = limits
        super.init()
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = min(10, limits.deadline)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Cancels any transfer and releases the session (which holds this delegate).
    /// Later fetches fail at once: a task asked of an invalidated session traps.
    func invalidate() {
        lock.withLock { invalidated = true }
        session.invalidateAndCancel()
    }

    /// `accept`, when given, is sent as `Accept` (the sealed dataset form).
    func fetch(_ url: URL, etag: String?, accept: String? = nil) async -> Result<Outcome, Failure> {
        if let draining = lock.withLock({ transfers.isEmpty ? nil : abandonedBecause }) { return .failure(draining) }
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: min(10, limits.deadline))
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        let deadline = limits.deadline
        return await withCheckedContinuation { continuation in
            // Created under the lock, so `invalidate()` comes either before (no task) or after (the task is cancelled).
            let task = lock.withLock { () -> URLSessionDataTask? in
                guard !invalidated else { return nil }
                let task = session.dataTask(with: request)
                transfers[task.taskIdentifier] = Transfer(continuation: continuation)
                return task
            }
            guard let task else { return continuation.resume(returning: .failure(Failure(description: "cancelled"))) }
            DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self] in
                self?.abandon(task, Failure(description: "the dataset transfer did not finish within the \(Self.seconds(deadline)) s deadline"))
            }
            task.resume()
        }
    }

    /// Answers the caller with `reason` (if not answered yet) and cancels the task without waiting for it.
    private func abandon(_ task: URLSessionTask, _ reason: Failure) {
        let continuation = lock.withLock { () -> CheckedContinuation<Result<Outcome, Failure>, Never>? in
            guard let continuation = transfers[task.taskIdentifier]?.continuation else { return nil }
            transfers[task.taskIdentifier] = Transfer()
            abandonedBecause = reason
            return continuation
        }
        guard let continuation else { return }
        continuation.resume(returning: .failure(reason))
        DispatchQueue.global().async { task.cancel() }
    }

    private var tooLarge: Failure {
        Failure(description: "the dataset exceeds the \(limits.maxBytes)-byte cap; transfer cancelled")
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.withLock { transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse }
        completionHandler(.allow)
        if response.expectedContentLength > Int64(limits.maxBytes) { abandon(dataTask, tooLarge) }
    }

    /// A redirect is never followed: the 3xx itself is the answer (a failure), so a leader, or whoever wrote its
    /// URL, cannot send a follower to another host.
    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        completionHandler(nil)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let overflow = lock.withLock { () -> Bool in
            guard var transfer = transfers[dataTask.taskIdentifier], transfer.continuation != nil else { return false }
            guard transfer.body.count + data.count <= limits.maxBytes else { return true }
            transfers[dataTask.taskIdentifier] = nil  // keep the buffer uniquely referenced while appending
            transfer.body.append(data)
            transfers[dataTask.taskIdentifier] = transfer
            return false
        }
        if overflow { abandon(dataTask, tooLarge) }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }) else { return }
        transfer.continuation?.resume(returning: Self.result(transfer, error: error, task: task))
    }

    private static func result(_ entry: Transfer, error: Error?, task: URLSessionTask) -> Result<Outcome, Failure> {
        if let error { return .failure(Failure(description: describe(error))) }
        guard let response = entry.response ?? (task.response as? HTTPURLResponse) else {
            return .failure(Failure(description: "no HTTP response from the leader"))
        }
        switch response.statusCode {
        case 304: return .success(.notModified)
        case 200: return .success(.dataset(body: Array(entry.body), etag: response.value(forHTTPHeaderField: "ETag")))
        default: return .failure(Failure(description: "leader answered HTTP \(response.statusCode)"))
        }
    }

    private static func describe(_ error: Error) -> String {
        guard let error = error as? URLError else { return "\(error)" }
        switch error.code {
        case .cannotConnectToHost: return "cannot connect to the leader"
        case .cannotFindHost, .dnsLookupFailed: return "cannot resolve the leader's host"
        case .timedOut: return "the leader stopped sending (read timeout)"
        case .networkConnectionLost: return "connection to the leader lost"
        case .cancelled: return "cancelled"
        default: return "URL error \(error.code.rawValue)"
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

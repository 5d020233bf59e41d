import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// One URLSession whose transfers are bounded: each body is counted as it arrives (decoded bytes, so a compressed
/// bomb counts at its real size) and abandoned past its byte limit, by `Content-Length` up front or by counting; a
/// timer abandons it at its whole-request deadline however slowly bytes trickle in (the session's own timeout only
/// bounds the gap between two reads); redirects follow `Redirects`. Provider polls and a follower's dataset copy
/// both fetch through it.
///
/// On Linux a `cancel()` can take seconds to reach libcurl, sometimes the whole transfer, while a fast sender keeps
/// streaming. So an abandoned transfer answers its caller at once and drains every later byte into nothing, and the
/// cancel itself is sent from another thread (it waits for the task's queue, where libcurl may be inflating).
// @unchecked: URLSession calls it from its delegate queue; `transfers` and the flags are only touched under `lock`.
public final class BoundedTransfers: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    public enum Redirects: Sendable {
        /// Within the origin (scheme, host, port) the request was sent to: a provider moving a path on its own host.
        case sameOrigin
        /// Never: the 3xx itself is the answer.
        case never
    }

    public enum Failure: Error, Sendable, Equatable {
        case tooLarge(limit: Int)
        /// The whole-request deadline passed.
        case deadline(TimeInterval)
        case redirectRefused(status: Int)
        case transport(URLError.Code)
        case noResponse
        /// Cancelled by the caller's task, or the session was invalidated.
        case cancelled
    }

    /// The status, headers (names lower-cased) and body of a finished transfer.
    public struct Reply: Sendable {
        public let status: Int
        public let headers: [String: String]
        public let body: Data
    }

    private struct Transfer {
        var limit: Int
        /// Nil once the caller has its answer; the transfer is then only draining.
        var continuation: CheckedContinuation<Result<Reply, Failure>, Never>?
        var body = Data()
        var response: HTTPURLResponse?
        /// Set when a redirect was refused, so completion reports that rather than the 3xx.
        var refusedRedirect: Int?

        /// Appends `data` unless that passes the limit (true: abandon now). Called through the dictionary's
        /// in-place accessor, so a body near the cap is not copied on every chunk.
        mutating func receive(_ data: Data) -> Bool {
            guard continuation != nil else { return false }
            guard body.count + data.count <= limit else { return true }
            body.append(data)
            return false
        }
    }

    private let redirects: Redirects
    private let refusesWhileDraining: Bool
    private let lock = NSLock()
    private var transfers: [Int: Transfer] = [:]
    /// Why the last transfer was abandoned, answered again while one still drains (`refusesWhileDraining`).
    private var abandonedBecause: Failure?
    private var invalidated = false
    private var session: URLSession!

    /// `refusesWhileDraining`: no new transfer starts while an abandoned one still drains (one stream at a time
    /// from a peer that ignores cancels); the caller hears why the last one was abandoned.
    public init(configuration: URLSessionConfiguration, queue: OperationQueue, redirects: Redirects, refusesWhileDraining: Bool = false) {
        self.redirects = redirects
        self.refusesWhileDraining = refusesWhileDraining
        super.init()
        session = URLSession(configuration: configuration, delegate: self, delegateQueue: queue)
    }

    /// Cancels every transfer and releases the session (which holds this delegate); later fetches fail at once.
    public func invalidate() {
        lock.withLock { invalidated = true }
        session.invalidateAndCancel()
    }

    /// One exchange, no retries: the reply (any status) or why there is none.
    public func fetch(_ request: URLRequest, limit: Int, deadline: TimeInterval) async -> Result<Reply, Failure> {
        let holder = TaskHolder()
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Result<Reply, Failure>, Never>) in
                // Created under the lock, so `invalidate()` comes either before (no task) or after (cancelled).
                let outcome = lock.withLock { () -> Result<URLSessionDataTask, Failure> in
                    if invalidated { return .failure(.cancelled) }
                    if refusesWhileDraining, !transfers.isEmpty, let reason = abandonedBecause { return .failure(reason) }
                    let task = session.dataTask(with: request)
                    transfers[task.taskIdentifier] = Transfer(limit: limit, continuation: continuation)
                    return .success(task)
                }
                guard case .success(let task) = outcome else {
                    if case .failure(let reason) = outcome { continuation.resume(returning: .failure(reason)) }
                    return
                }
                holder.set(task) { [weak self] in self?.abandon(task, .cancelled) }
                DispatchQueue.global().asyncAfter(deadline: .now() + deadline) { [weak self] in
                    self?.abandon(task, .deadline(deadline))
                }
                task.resume()
            }
        } onCancel: {
            holder.cancel()
        }
    }

    /// Answers the caller with `reason` (if not answered yet) and cancels the task without waiting for it.
    private func abandon(_ task: URLSessionTask, _ reason: Failure) {
        let continuation = lock.withLock { () -> CheckedContinuation<Result<Reply, Failure>, Never>? in
            guard let continuation = transfers[task.taskIdentifier]?.continuation else { return nil }
            transfers[task.taskIdentifier]?.continuation = nil
            transfers[task.taskIdentifier]?.body = Data()
            abandonedBecause = reason
            return continuation
        }
        guard let continuation else { return }
        continuation.resume(returning: .failure(reason))
        DispatchQueue.global().async { task.cancel() }
    }

    public func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        let limit = lock.withLock { () -> Int? in
            transfers[dataTask.taskIdentifier]?.response = response as? HTTPURLResponse
            return transfers[dataTask.taskIdentifier]?.limit
        }
        completionHandler(.allow)
        if let limit, response.expectedContentLength > Int64(limit) { abandon(dataTask, .tooLarge(limit: limit)) }
    }

    public func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let limit = lock.withLock { () -> Int? in
            guard transfers[dataTask.taskIdentifier]?.receive(data) == true else { return nil }
            return transfers[dataTask.taskIdentifier]?.limit
        }
        if let limit { abandon(dataTask, .tooLarge(limit: limit)) }
    }

    public func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping (URLRequest?) -> Void
    ) {
        if redirects == .sameOrigin, let from = task.originalRequest?.url, let to = request.url, Origin(from) != nil, Origin(from) == Origin(to) {
            completionHandler(request)
            return
        }
        // Declining ends the task with the redirect response itself; completion reports the refusal instead, so
        // neither that body nor anything from the other origin reaches the caller.
        lock.withLock { transfers[task.taskIdentifier]?.refusedRedirect = response.statusCode }
        completionHandler(nil)
    }

    public func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        guard let transfer = lock.withLock({ transfers.removeValue(forKey: task.taskIdentifier) }),
              let continuation = transfer.continuation
        else { return }
        continuation.resume(returning: Self.result(transfer, error: error, task: task))
    }

    private static func result(_ transfer: Transfer, error: Error?, task: URLSessionTask) -> Result<Reply, Failure> {
        if let status = transfer.refusedRedirect { return .failure(.redirectRefused(status: status)) }
        if let error {
            guard let code = (error as? URLError)?.code else { return .failure(.transport(.unknown)) }
            return .failure(code == .cancelled ? .cancelled : .transport(code))
        }
        guard let response = transfer.response ?? (task.response as? HTTPURLResponse) else { return .failure(.noResponse) }
        var headers: [String: String] = [:]
        for (name, value) in response.allHeaderFields {
            if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
        }
        return .success(Reply(status: response.statusCode, headers: headers, body: transfer.body))
    }
}

/// Holds a data task for cancellation that may arrive before the task exists.
// @unchecked: its fields are only touched under `lock`.
private final class TaskHolder: @unchecked Sendable {
    private let lock = NSLock()
    private var cancelTask: (@Sendable () -> Void)?
    private var cancelled = false

    func set(_ task: URLSessionDataTask, cancel: @escaping @Sendable () -> Void) {
        let cancelNow = lock.withLock { () -> Bool in
            cancelTask = cancel
            return cancelled
        }
        if cancelNow { cancel() }
    }

    func cancel() {
        let cancel = lock.withLock { () -> (@Sendable () -> Void)? in
            cancelled = true
            return cancelTask
        }
        cancel?()
    }
}

/// RFC 6454 origin of an http(s) URL: lower-cased scheme and host, and the port with the scheme's default filled in.
struct Origin: Equatable {
    let scheme: String
    let host: String
    let port: Int

    init?(_ url: URL) {
        guard let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased(), !host.isEmpty else { return nil }
        let defaultPort: Int
        switch scheme {
        case "http": defaultPort = 80
        case "https": defaultPort = 443
        default: return nil
        }
        self.scheme = scheme
        self.host = host
        self.port = url.port ?? defaultPort
    }
}

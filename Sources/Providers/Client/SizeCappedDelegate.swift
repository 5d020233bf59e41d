import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects each task's body and stops reading once it exceeds the task's byte limit (by `Content-Length`
/// up front, or by counting as data arrives), enforces a whole-request deadline and refuses redirects to another
/// origin (`SizeCappedDelegate+Redirects.swift`).
// @unchecked: URLSession calls it from its delegate queue; `pending` is only touched under `lock`.
final class SizeCappedDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Pending {
        var limit: Int
        var label: String
        /// Nil once answered: past the cap the caller hears at once, while libcurl (which on Linux takes seconds,
        /// sometimes the whole transfer, to act on a cancel) drains the rest into nothing.
        var continuation: CheckedContinuation<Result<ProviderResponse, ProviderError>, Never>?
        var body = Data()
        var response: HTTPURLResponse?
        /// Set when we cancelled the task ourselves, so completion reports why.
        var cancelReason: ProviderError?

        /// Appends `data` unless that passes the limit; past it, drops the body and records why (true: cancel now).
        /// `data` is decoded (URLSession inflates a compressed body first), so this counts the body's cost in memory.
        /// Called through the dictionary's in-place accessor: a copied-out entry would copy the whole body on
        /// every chunk, and a body near the cap would then cost seconds of copying while chunks pile up unread.
        mutating func receive(_ data: Data) -> Bool {
            guard cancelReason == nil else { return false }
            guard body.count + data.count <= limit else {
                cancelReason = .tooLarge(limit: limit)
                body = Data()
                return true
            }
            body.append(data)
            return false
        }
    }

    private let lock = NSLock()
    private var pending: [Int: Pending] = [:]

    func register(_ task: URLSessionTask, limit: Int, label: String,
                  continuation: CheckedContinuation<Result<ProviderResponse, ProviderError>, Never>) {
        lock.lock()
        pending[task.taskIdentifier] = Pending(limit: limit, label: label, continuation: continuation)
        lock.unlock()
    }

    /// The deadline passed: cancel the task if it is still running; completion reports `.timeout`.
    func expire(_ task: URLSessionTask) {
        guard mark(task, reason: .timeout) else { return }
        task.cancel()
    }

    /// Records why we are cancelling; false when the task already finished.
    func mark(_ task: URLSessionTask, reason: ProviderError) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard pending[task.taskIdentifier] != nil else { return false }
        if pending[task.taskIdentifier]!.cancelReason == nil { pending[task.taskIdentifier]!.cancelReason = reason }
        return true
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping (URLSession.ResponseDisposition) -> Void
    ) {
        lock.lock()
        var allow = true
        if var entry = pending[dataTask.taskIdentifier] {
            entry.response = response as? HTTPURLResponse
            if response.expectedContentLength > Int64(entry.limit) {
                entry.cancelReason = entry.cancelReason ?? .tooLarge(limit: entry.limit)
                allow = false
            }
            pending[dataTask.taskIdentifier] = entry
        }
        lock.unlock()
        completionHandler(allow ? .allow : .cancel)
        if !allow { Self.cancelSoon(dataTask) }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let id = dataTask.taskIdentifier
        lock.lock()
        let tooLarge = pending[id]?.receive(data) ?? false
        let limit = pending[id]?.limit ?? 0
        let early = tooLarge ? answerEarly(id) : nil
        lock.unlock()
        if tooLarge {
            early?.resume(returning: .failure(.tooLarge(limit: limit)))
            Self.cancelSoon(dataTask)
        }
    }

    /// Takes the continuation out of a task's entry (under `lock`), so completion later answers nobody.
    private func answerEarly(_ id: Int) -> CheckedContinuation<Result<ProviderResponse, ProviderError>, Never>? {
        let continuation = pending[id]?.continuation
        pending[id]?.continuation = nil
        return continuation
    }

    /// Cancels from another thread. `URLSessionTask.cancel()` waits for the task's work queue, where libcurl may
    /// spend seconds inflating one read of a compressed body; waiting here would stall this delegate queue while
    /// every chunk decoded meanwhile piles up in memory, instead of being dropped as it arrives.
    static func cancelSoon(_ task: URLSessionTask) {
        DispatchQueue.global().async { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let entry = pending.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let entry, let continuation = entry.continuation else { return }
        let result: Result<ProviderResponse, ProviderError>
        if let reason = entry.cancelReason {
            result = .failure(reason)
        } else if let error {
            result = .failure(Self.map(error, label: entry.label))
        } else if let response = entry.response ?? (task.response as? HTTPURLResponse) {
            var headers: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { headers[name.lowercased()] = value }
            }
            result = .success(ProviderResponse(status: response.statusCode, headers: headers, body: entry.body))
        } else {
            result = .failure(.transport("no HTTP response"))
        }
        continuation.resume(returning: result)
    }

    /// A URLError as a short text: its code's meaning, never `localizedDescription` (which may quote the URL).
    static func map(_ error: Error, label: String) -> ProviderError {
        guard let urlError = error as? URLError else { return .transport(String(describing: type(of: error))) }
        let reason: String
        switch urlError.code {
        case .timedOut: return .timeout
        case .cancelled: reason = "cancelled"
        case .cannotFindHost, .dnsLookupFailed: reason = "cannot resolve host"
        case .cannotConnectToHost: reason = "cannot connect to host"
        case .networkConnectionLost: reason = "connection lost"
        case .notConnectedToInternet: reason = "not connected to the internet"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            reason = "TLS failure"
        case .badServerResponse: reason = "bad server response"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: reason = "redirect failure"
        case .dataLengthExceedsMaximum: reason = "response too large"
        case .zeroByteResource: reason = "empty response"
        default: reason = "URL error \(urlError.code.rawValue)"
        }
        return .transport(reason)
    }
}

import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Collects each task's body and stops reading once it exceeds the task's byte limit (by `Content-Length`
/// up front, or by counting as data arrives), enforces a whole-request deadline and refuses redirects to another
/// origin (`SizeCappedDelegate+Redirects.swift`).
final class SizeCappedDelegate: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    private struct Pending {
        var limit: Int
        var label: String
        var continuation: CheckedContinuation<Result<ProviderResponse, ProviderError>, Never>
        var body = Data()
        var response: HTTPURLResponse?
        /// Set when we cancelled the task ourselves, so completion reports why.
        var cancelReason: ProviderError?
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
        if !allow { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        lock.lock()
        var tooLarge = false
        if var entry = pending[dataTask.taskIdentifier], entry.cancelReason == nil {
            if entry.body.count + data.count > entry.limit {
                entry.cancelReason = .tooLarge(limit: entry.limit)
                entry.body = Data()
                tooLarge = true
            } else {
                entry.body.append(data)
            }
            pending[dataTask.taskIdentifier] = entry
        }
        lock.unlock()
        if tooLarge { dataTask.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: Error?) {
        lock.lock()
        let entry = pending.removeValue(forKey: task.taskIdentifier)
        lock.unlock()
        guard let entry else { return }
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
        entry.continuation.resume(returning: result)
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

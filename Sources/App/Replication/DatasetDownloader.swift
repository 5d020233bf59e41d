import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Providers

/// One bounded conditional GET of the leader's dataset (`BoundedTransfers`: the byte cap, the whole-transfer
/// deadline, answering at once while an abandoned transfer drains). Asking for `identity` keeps the counted bytes
/// equal to the wire bytes. A redirect is never followed: the 3xx itself is the answer (a failure), so a leader, or
/// whoever wrote its URL, cannot send a follower to another host. No new transfer starts while an abandoned one
/// still drains.
final class DatasetDownloader: Sendable {
    enum Outcome {
        case notModified
        case dataset(body: [UInt8], etag: String?)
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    let limits: FollowLimits
    private let transfers: BoundedTransfers

    init(limits: FollowLimits) {
        self.limits = limits
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = min(10, limits.deadline)
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        transfers = BoundedTransfers(configuration: configuration, queue: queue, redirects: .never, refusesWhileDraining: true)
    }

    /// Cancels any transfer and releases the session; later fetches fail at once.
    func invalidate() {
        transfers.invalidate()
    }

    /// `accept`, when given, is sent as `Accept` (the sealed dataset form).
    func fetch(_ url: URL, etag: String?, accept: String? = nil) async -> Result<Outcome, Failure> {
        var request = URLRequest(url: url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: min(10, limits.deadline))
        request.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        if let etag { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        if let accept { request.setValue(accept, forHTTPHeaderField: "Accept") }
        switch await transfers.fetch(request, limit: limits.maxBytes, deadline: limits.deadline) {
        case .success(let reply):
            switch reply.status {
            case 304: return .success(.notModified)
            case 200: return .success(.dataset(body: Array(reply.body), etag: reply.headers["etag"]))
            default: return .failure(Failure(description: "leader answered HTTP \(reply.status)"))
            }
        case .failure(let failure):
            return .failure(Failure(description: Self.describe(failure)))
        }
    }

    private static func describe(_ failure: BoundedTransfers.Failure) -> String {
        switch failure {
        case .tooLarge(let limit): "the dataset exceeds the \(limit)-byte cap; transfer cancelled"
        case .deadline(let seconds): "the dataset transfer did not finish within the \(Self.seconds(seconds)) s deadline"
        case .redirectRefused(let status): "leader answered HTTP \(status)"
        case .noResponse: "no HTTP response from the leader"
        case .cancelled: "cancelled"
        case .transport(.cannotConnectToHost): "cannot connect to the leader"
        case .transport(.cannotFindHost), .transport(.dnsLookupFailed): "cannot resolve the leader's host"
        case .transport(.timedOut): "the leader stopped sending (read timeout)"
        case .transport(.networkConnectionLost): "connection to the leader lost"
        case .transport(let code): "URL error \(code.rawValue)"
        }
    }

    private static func seconds(_ value: TimeInterval) -> String {
        value == value.rounded() ? String(Int(value)) : String(value)
    }
}

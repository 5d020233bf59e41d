import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import Fuel
import HTTP
import Synchronization

/// Follower mode (`PETTY_FOLLOW_URL`): instead of polling providers, copy the leader's dataset over HTTP every
/// few seconds (a 304 when unchanged). When the leader is down, keep serving the last good copy.
// @unchecked: shared state is in `state` (a Mutex); `task` is set by start() and read by shutdown() on the one thread that runs the lifecycle.
final class FollowerService: LifecycleService, @unchecked Sendable {
    let name = "follower"
    let leader: URL
    private let store: PettyStore
    private let interval: TimeInterval
    private let logger: Logger
    private let session: URLSession
    private let state = Mutex(State())
    private var task: Task<Void, Never>?

    struct State {
        var etag: String?
        var lastSync: Date?
        var lastError: String?
        var failing = false
    }

    init(leader: URL, store: PettyStore, interval: TimeInterval, logger: Logger) {
        self.leader = leader.appendingPathComponent("internal/v1/dataset")
        self.store = store
        self.interval = interval
        self.logger = logger
        let configuration = URLSessionConfiguration.ephemeral
        configuration.timeoutIntervalForRequest = 10
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        session = URLSession(configuration: configuration)
    }

    var status: State { state.withLock { $0 } }

    func start() throws {
        logger.notice("follower: copying the dataset from \(leader.absoluteString) every \(Int(interval))s; providers are not polled")
        task = Task.detached { [self] in
            while !Task.isCancelled {
                await syncOnce()
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            }
        }
    }

    func shutdown() {
        task?.cancel()
        task = nil
        session.invalidateAndCancel()
    }

    /// One conditional GET; returns whether a new dataset was applied.
    @discardableResult
    func syncOnce() async -> Bool {
        var request = URLRequest(url: leader)
        if let etag = state.withLock({ $0.etag }) { request.setValue(etag, forHTTPHeaderField: "If-None-Match") }
        do {
            let (data, response) = try await session.data(for: request)
            let status = (response as? HTTPURLResponse)?.statusCode ?? 0
            switch status {
            case 304:
                succeeded(etag: nil)
                return false
            case 200:
                let dataset = try ReplicationPayload.decode(Array(data))
                let etag = (response as? HTTPURLResponse)?.value(forHTTPHeaderField: "ETag")
                store.replace(with: dataset)
                succeeded(etag: etag)
                logger.info("follower: applied leader snapshot v\(dataset.snapshot.version) (\(dataset.snapshot.stationCount) stations, \(data.count) bytes)")
                return true
            default:
                throw FollowError(description: "leader answered HTTP \(status)")
            }
        } catch let error as URLError {
            failed(error.localizedDescription)
            return false
        } catch {
            failed("\(error)")
            return false
        }
    }

    struct FollowError: Error, CustomStringConvertible {
        let description: String
    }

    private func succeeded(etag: String?) {
        let recovered = state.withLock { state -> Bool in
            if let etag { state.etag = etag }
            state.lastSync = Date()
            defer { state.failing = false }
            return state.failing
        }
        if recovered { logger.notice("follower: leader reachable again") }
    }

    private func failed(_ message: String) {
        let first = state.withLock { state -> Bool in
            state.lastError = message
            defer { state.failing = true }
            return !state.failing
        }
        if first {
            logger.error("follower: cannot copy from \(leader.absoluteString) (\(message)); serving the last good snapshot v\(store.current.version)")
        }
    }
}

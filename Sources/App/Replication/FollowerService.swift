import API
import Foundation
import Fuel
import HTTP
import Synchronization

/// Follower mode (`PETTY_FOLLOW_URL`): instead of polling providers, copy the leader's dataset over HTTP every
/// few seconds (a 304 when unchanged). A dataset is applied only when every value is in range
/// (`DatasetValidation`) and it does not go backwards or shrink (`DatasetTrust`); anything refused, like a
/// leader that is down, leaves the last good copy served and persisted and shows as `failing` in `/health`.
final class FollowerService: Service {
    let name = "follower"
    let leader: URL
    private let store: PettyStore
    private let interval: TimeInterval
    private let logger: Logger
    private let limits: FollowLimits
    private let downloader: DatasetDownloader
    private let state = Mutex(State())

    typealias State = FollowerState

    init(leader: URL, store: PettyStore, interval: TimeInterval, limits: FollowLimits = FollowLimits(), logger: Logger) {
        self.leader = leader.appendingPathComponent("internal/v1/dataset")
        self.store = store
        self.interval = interval
        self.logger = logger
        self.limits = limits
        downloader = DatasetDownloader(limits: limits)
    }

    var status: State { state.withLock { $0 } }

    /// A cancelled download ends at once (the session is invalidated); allow one deadline in case it does not.
    var stopTimeout: Double { limits.deadline + 2 }

    /// Copies until cancelled; once it returns no copy can land in the store, so persistence's final save
    /// (which runs after) holds the last one.
    func run() async throws {
        logger.notice("follower: copying the dataset from \(leader.absoluteString) every \(Int(interval))s; providers are not polled")
        await withTaskCancellationHandler {
            while !Task.isCancelled {
                await syncOnce()
                try? await Task.sleep(nanoseconds: UInt64(interval * 1_000_000_000))
            }
        } onCancel: {
            downloader.invalidate()
        }
    }

    /// One conditional GET; returns whether a new dataset was applied.
    @discardableResult
    func syncOnce() async -> Bool {
        let (etag, refusedETag) = state.withLock { ($0.etag, $0.refusedETag) }
        switch await downloader.fetch(leader, etag: etag) {
        case .failure(let failure):
            failed(failure.description)
            return false
        case .success(.notModified):
            // Still the dataset refused last time: still failing, for the same reason.
            if refusedETag == nil { succeeded(etag: nil) }
            return false
        case .success(.dataset(let body, let etag)):
            do {
                let dataset = try ReplicationPayload.decode(body)
                if let problem = DatasetValidation.problem(in: dataset) ?? DatasetTrust.refusal(of: dataset.snapshot, holding: store.current.snapshot) {
                    refused(problem, etag: etag)
                    return false
                }
                // Shutting down: writers have been told to stop, so the store stays as the final save will find it.
                guard !Task.isCancelled else { return false }
                store.replace(with: dataset)
                succeeded(etag: etag)
                logger.info("follower: applied leader snapshot v\(dataset.snapshot.version) (\(dataset.snapshot.stationCount) stations, \(body.count) bytes)")
                return true
            } catch {
                refused("\(error)", etag: etag)
                return false
            }
        }
    }

    private func succeeded(etag: String?) {
        let recovered = state.withLock { state -> Bool in
            if let etag { state.etag = etag }
            state.refusedETag = nil
            state.lastSync = Date()
            defer { state.failing = false }
            return state.failing
        }
        if recovered { logger.notice("follower: leader reachable again") }
    }

    private func refused(_ reason: String, etag: String?) {
        state.withLock { state in
            state.etag = etag
            state.refusedETag = etag
        }
        failed("refused the leader's dataset: \(reason)")
    }

    private func failed(_ message: String) {
        let first = state.withLock { state -> Bool in
            defer {
                state.failing = true
                state.lastError = message
            }
            return !state.failing || state.lastError != message
        }
        if first {
            logger.error("follower: cannot copy from \(leader.absoluteString) (\(message)); serving the last good snapshot v\(store.current.version)")
        }
    }
}

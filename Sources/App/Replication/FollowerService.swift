import API
import Foundation
import Fuel
import HTTP
import Providers
import Synchronization

/// Follower mode (`PETTY_FOLLOW_URL`): instead of polling providers, copy the leader's dataset over HTTP every
/// few seconds (a 304 when unchanged). A dataset is applied only when its checksum holds (`ReplicationPayload`),
/// every value is in range (`DatasetValidation`), it breaks no trust rule (`DatasetBounds`: text, future instants,
/// version leaps, growth) and it does not go backwards or shrink (`DatasetTrust`); anything refused, like a
/// leader that is down, leaves the last good copy served and persisted, shows as `failing` in `/health` and is
/// counted by reason in `/metrics`. A refusal pins nothing: the leader's next good dataset is applied.
/// Each sync also copies how the leader's provider polls go (`LeaderProviders`) for `/health`.
final class FollowerService: Service {
    let name = "follower"
    let leader: URL
    private let store: any DatasetStore
    private let interval: TimeInterval
    private let logger: Logger
    private let limits: FollowLimits
    private let downloader: DatasetDownloader
    private let providersURL: URL
    private let providersDownloader = DatasetDownloader(limits: LeaderProviders.limits)
    private let clock: @Sendable () -> Date
    private let state = Mutex(State())

    typealias State = FollowerState

    init(
        leader: URL, store: any DatasetStore, interval: TimeInterval, limits: FollowLimits = FollowLimits(), logger: Logger,
        clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.leader = leader.appendingPathComponent(DatasetWire.path)
        providersURL = leader.appendingPathComponent(LeaderProvidersBody.path)
        self.clock = clock
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
            providersDownloader.invalidate()
        }
    }

    /// One conditional GET (and the leader's provider health); returns whether a new dataset was applied.
    @discardableResult
    func syncOnce() async -> Bool {
        let applied = await syncDataset()
        if !Task.isCancelled { await copyLeaderProviders() }
        return applied
    }

    private func syncDataset() async -> Bool {
        let (etag, refusedETag) = state.withLock { ($0.etag, $0.refusedETag) }
        switch await downloader.fetch(leader, etag: etag, accept: DatasetWire.sealedContentType) {
        case .failure(let failure):
            failed(failure.description)
            return false
        case .success(.notModified):
            // Still the dataset refused last time: still failing, for the same reason.
            if refusedETag == nil { succeeded(etag: nil) }
            return false
        case .success(.dataset(let body, let etag)):
            do throws(DatasetRefusal) {
                return offer(try ReplicationPayload.open(body), etag: etag, bytes: body.count)
            } catch {
                refused(error, etag: etag)
                return false
            }
        }
    }

    /// Applies a decoded dataset from the leader if it breaks no rule, or records why not; returns whether applied.
    func offer(_ dataset: Dataset, etag: String?, bytes: Int) -> Bool {
        do throws(DatasetRefusal) {
            try check(dataset)
        } catch {
            refused(error, etag: etag)
            return false
        }
        // Shutting down: writers have been told to stop, so the store stays as the final save will find it.
        guard !Task.isCancelled else { return false }
        var dataset = dataset
        // A follower may lead one day: it never forgets an id it knew was issued.
        dataset.registry.raiseMark(to: store.idMark)
        store.publish(dataset)
        state.withLock { $0.growthSeen = [:] }
        succeeded(etag: etag)
        logger.info("follower: applied leader snapshot v\(dataset.snapshot.version) (\(dataset.snapshot.stationCount) stations, \(bytes) bytes)")
        return true
    }

    /// Throws the first rule `dataset` breaks against what the store holds.
    private func check(_ dataset: Dataset) throws(DatasetRefusal) {
        let held = store.dataset.snapshot
        if let problem = DatasetValidation.problem(in: dataset) { throw DatasetRefusal(.outOfRange, problem) }
        if let refusal = DatasetBounds.refusal(of: dataset.snapshot, holding: held, now: clock())
            ?? DatasetTrust.refusal(of: dataset.snapshot, holding: held) {
            throw refusal
        }
        let grown = DatasetBounds.growth(of: dataset.snapshot, holding: held)
        if let refusal = state.withLock({ DatasetBounds.unconfirmedGrowth(grown, seen: &$0.growthSeen) }) { throw refusal }
    }

    /// A leader from before `LeaderProviders` answers 404: the follower then has nothing to show but the snapshot's.
    private func copyLeaderProviders() async {
        guard case .success(.dataset(let body, _)) = await providersDownloader.fetch(providersURL, etag: nil),
              let health = try? LeaderProviders.decode(body)
        else { return }
        state.withLock { $0.leaderProviders = health }
    }

    private func succeeded(etag: String?) {
        let recovered = state.withLock { state -> Bool in
            if let etag { state.etag = etag }
            state.refusedETag = nil
            state.lastSync = clock()
            defer { state.failing = false }
            return state.failing
        }
        if recovered { logger.notice("follower: leader reachable again") }
    }

    private func refused(_ refusal: DatasetRefusal, etag: String?) {
        state.withLock { state in
            state.etag = etag
            state.refusedETag = etag
            state.refusals[refusal.reason, default: 0] += 1
        }
        failed("refused the leader's dataset: \(refusal)")
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
            logger.error("follower: cannot copy from \(leader.absoluteString) (\(message)); serving the last good snapshot v\(store.dataset.snapshot.version)")
        }
    }
}

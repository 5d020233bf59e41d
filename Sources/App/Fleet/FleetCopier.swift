import API
import Coordination
import Foundation
import Fuel
import Synchronization

/// A fleet follower's copy step: download the dataset the published pointer names, with the follower's
/// downloader and limits, and apply it only when the body's checksum is the pointer's, the pointer is news by
/// `PointerOrder` (token (generation, epoch) first, then version), and the dataset passes the same validation and trust rules as in
/// `PETTY_FOLLOW_URL` mode. Anything refused leaves the held dataset served.
final class FleetCopier: Sendable {
    enum Outcome: Equatable {
        case applied(version: UInt64)
        /// Nothing to do: the pointer is not newer than what is held, or the leader moved on meanwhile.
        case unchanged
        case refused(String)
        case failed(String)
    }

    struct State {
        /// The token of the dataset held ((0, 0) before any copy).
        var token = FleetFenceToken(generation: 0, revision: 0)
        var epoch: Int64 { token.revision }
        /// The version and pointer checksum of the last dataset copied.
        var applied: (version: UInt64, checksum: String)?
        var lastApplied: Date?
        var lastError: String?
        var refused = 0
        /// Datasets in a row that showed each growth, as in follow mode (`DatasetBounds.unconfirmedGrowth`).
        var growthSeen: [String: Int] = [:]
    }

    /// A publisher's clock taken as at most this far ahead of the follower's (a day: clocks set a time zone wrong).
    static let maxPublisherLead: TimeInterval = 86_400

    let store: any DatasetStore
    private let downloader: DatasetDownloader
    private let clock: @Sendable () -> Date
    private let state = Mutex(State())

    /// Checks each body's signature (`PETTY_FLEET_SECRET`); nil: unsigned datasets are taken.
    let verifier: DatasetSignature?

    init(store: any DatasetStore, limits: FollowLimits, verifier: DatasetSignature? = nil, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.store = store
        self.verifier = verifier
        self.clock = clock
        downloader = DatasetDownloader(limits: limits)
    }

    var status: State { state.withLock { $0 } }

    func invalidate() { downloader.invalidate() }

    func copy(_ pointer: DatasetPointer) async -> Outcome {
        let (heldToken, applied) = state.withLock { ($0.token, $0.applied) }
        let heldVersion = store.dataset.snapshot.version
        let heldChecksum = applied?.version == heldVersion ? applied?.checksum : nil
        let versionMayGoBack: Bool
        switch PointerOrder.of(pointer, held: heldToken, heldVersion: heldVersion, heldChecksum: heldChecksum) {
        case .olderToken:
            return note(.refused("the token \(pointer.token) (generation.epoch) is older than the \(heldToken) held"))
        case .held:
            state.withLock { $0.token = max($0.token, pointer.token) }
            return .unchanged
        case .copy(let mayGoBack):
            versionMayGoBack = mayGoBack
        }
        guard let url = URL(string: pointer.url) else { return note(.refused("the pointer's URL is not a URL")) }
        switch await downloader.fetch(url, etag: nil) {
        case .failure(let failure):
            return note(.failed(failure.description))
        case .success(.notModified):
            return .unchanged
        case .success(.dataset(let body, let etag)):
            // The leader merged again after publishing: its next pointer names the newer body.
            if let etag, !DatasetWire.etag(etag, isOf: pointer.version) { return .unchanged }
            guard StoreFleetMember.checksum(body) == pointer.checksum else {
                return note(.refused("the body's checksum is not the published \(pointer.checksum)"))
            }
            if let verifier, let refusal = verifier.refusal(of: pointer, body: body) { return note(.refused(refusal)) }
            let dataset: Dataset
            do { dataset = try ReplicationPayload.decode(body) } catch { return note(.refused("\(error)")) }
            let held = store.dataset.snapshot
            if let problem = DatasetValidation.problem(in: dataset) {
                return note(.refused(problem))
            }
            // "Ahead of the clock" means ahead of the publisher's clock when it published, whichever is later: a
            // follower whose clock is slow still takes what the leader just published.
            let now = clock()
            let reference = max(now, min(pointer.publishedInstant ?? now, now.addingTimeInterval(Self.maxPublisherLead)))
            if let refusal = DatasetBounds.refusal(of: dataset.snapshot, holding: held, now: reference)
                ?? DatasetTrust.refusal(of: dataset.snapshot, holding: held, versionMayGoBack: versionMayGoBack, comparesAsOf: false) {
                return note(.refused(refusal.description))
            }
            let grown = DatasetBounds.growth(of: dataset.snapshot, holding: held)
            if let refusal = state.withLock({ DatasetBounds.unconfirmedGrowth(grown, seen: &$0.growthSeen) }) {
                return note(.refused(refusal.description))
            }
            guard !Task.isCancelled else { return .unchanged }
            store.publish(dataset)
            state.withLock { state in
                state.token = pointer.token
                state.applied = (dataset.snapshot.version, pointer.checksum)
                state.growthSeen = [:]
                state.lastApplied = now
                state.lastError = nil
            }
            return .applied(version: dataset.snapshot.version)
        }
    }

    /// A pointer refused before any download (`CopySource`), recorded like any refusal.
    func refuse(_ why: String) -> Outcome { note(.refused(why)) }

    private func note(_ outcome: Outcome) -> Outcome {
        state.withLock { state in
            switch outcome {
            case .refused(let why):
                state.refused += 1
                state.lastError = "refused: \(why)"
            case .failed(let why): state.lastError = why
            default: break
            }
        }
        return outcome
    }
}

import API
import Coordination
import Foundation
import Fuel
import HTTP
import Providers
import Synchronization
import Clocks

/// Fleet mode (`PETTY_ETCD_ENDPOINTS`): the coordinator keeps the lease and the election; this service polls
/// providers only while the coordinator says this member may act, and otherwise copies the published dataset.
/// A watchdog applies the lease deadline every 100 ms, so polling stops within that of the deadline even while
/// an etcd call hangs; the pollers' gate (`GatedPoller`, `GatedSink`) closes at the deadline itself.
final class FleetService: Service {
    let name = "fleet"
    let coordinator: FleetCoordinator
    let pollers: PollerService
    let copier: FleetCopier
    let member: StoreFleetMember
    private let logger: Logger
    private let monotonic: @Sendable () -> Double
    private let lag: Mutex<FollowLag>
    private let signature: DatasetSignature?
    private let followers: [IPAddressRange]

    var stopTimeout: Double { pollers.stopTimeout + 2 }

    init(
        settings: FleetSettings, store: PettyStore, providers: ProviderSettings, limits: FollowLimits, logger: Logger,
        secret: String? = nil, followers: [IPAddressRange] = [], dataDirectory: String? = nil, clock: @escaping @Sendable () -> Date = { Date() },
        monotonic: @escaping @Sendable () -> Double = { MonotonicClock.seconds() }
    ) {
        self.logger = logger
        self.monotonic = monotonic
        lag = Mutex(FollowLag(limit: Double(settings.leaseSeconds)))
        let signature = DatasetSignature(secret: secret, fleet: settings.fleet)
        self.signature = signature
        self.followers = followers
        let marks = FleetMarksFile(directory: dataDirectory, logger: logger.labelled("data"))
        let member = StoreFleetMember(store: store, advertiseURL: settings.advertiseURL, signer: signature, marks: marks, clock: clock)
        self.member = member
        let log = logger.labelled("fleet")
        let coordinator = FleetCoordinator(settings: settings, member: member, monotonic: monotonic, wall: clock, log: { log.notice($0) })
        self.coordinator = coordinator
        let mayAct: @Sendable () -> Bool = { coordinator.mayAct() }
        pollers = PollerService(
            settings: providers, sink: GatedSink(inner: FuelStoreSink(store: store), mayAct: mayAct),
            logger: logger.labelled("providers"), pollers: ProviderPollers.make(providers, gate: mayAct).map { GatedPoller($0, mayAct: mayAct) })
        copier = FleetCopier(store: store, limits: limits, verifier: signature, clock: clock)
    }

    /// The lease and the watchdog get a thread of their own: polls, merges, copies and saves are CPU work that
    /// must never delay a keep-alive past the deadline (that would hand the fleet to another member for nothing).
    func run() async throws {
        if signature == nil {
            logger.error("fleet: PETTY_FLEET_SECRET is not set: datasets are published and copied UNSIGNED, so anyone who can write the fleet's keys in etcd can feed every member; set the same secret on every member")
        }
        let coordination = ServiceExecutor(label: "petty-fleet-coordinator")
        defer { coordination.finish() }
        await withTaskCancellationHandler {
            await withDiscardingTaskGroup { group in
                group.addTask(executorPreference: coordination) { await self.coordinator.run() }
                group.addTask(executorPreference: coordination) { await self.watch() }
                group.addTask(executorPreference: globalConcurrentExecutor) { await self.follow() }
            }
        } onCancel: {
            copier.invalidate()
        }
    }

    /// Starts the pollers when this member may act and cancels them (in-flight requests too) when it may not.
    private func watch() async {
        var polling: Task<Void, Never>?
        while !Task.isCancelled {
            coordinator.tick()
            let mayAct = coordinator.mayAct()
            if mayAct, polling == nil {
                let pollers = self.pollers
                polling = Task(executorPreference: globalConcurrentExecutor) { try? await pollers.run() }
            } else if !mayAct, let task = polling {
                task.cancel()
                await task.value
                polling = nil
            }
            try? await Task.sleep(nanoseconds: 100_000_000)
        }
        polling?.cancel()
        await polling?.value
    }

    /// While following: copy each newly published dataset (the coordinator reads the pointer every round), as
    /// `CopySchedule` allows: never from this member's own URL, and backing off after a copy that changed nothing.
    private func follow() async {
        var schedule = CopySchedule(ownURL: member.datasetURL, maximumDelay: Double(coordinator.settings.leaseSeconds))
        var lastFailure: String?
        var saidOwn: DatasetPointer?
        var generation = coordinator.status.generation
        while !Task.isCancelled {
            // Pointers carry their generation (the copier orders by it); only the schedule's backoff starts afresh.
            if coordinator.status.generation != generation {
                generation = coordinator.status.generation
                schedule = CopySchedule(ownURL: member.datasetURL, maximumDelay: Double(coordinator.settings.leaseSeconds))
            }
            observeLag()
            if !coordinator.mayAct(), let pointer = coordinator.status.published {
                switch schedule.decision(for: pointer, at: monotonic()) {
                case .copy:
                    let status = coordinator.status
                    let source = CopySource(leaderEpoch: status.epoch, leaderURL: status.leaderURL, allowed: followers, memberURLs: status.memberURLs)
                    let outcome = if let why = source.refusal(of: pointer) { copier.refuse(why) } else { await copier.copy(pointer) }
                    schedule.record(outcome, for: pointer, at: monotonic())
                    switch outcome {
                    case .applied(let version):
                        lastFailure = nil
                        logger.info("fleet: applied v\(version) from \(CopySource.redacted(pointer.url)) (epoch \(pointer.epoch))")
                    case .refused(let why):
                        logger.error("fleet: refused the published v\(pointer.version) from \(CopySource.redacted(pointer.url)): \(why)")
                    case .failed(let why):
                        // Retried with a growing delay while the leader is unreachable: one line per distinct failure.
                        if why != lastFailure { logger.warning("fleet: cannot copy v\(pointer.version) from \(CopySource.redacted(pointer.url)): \(why)") }
                        lastFailure = why
                    case .unchanged:
                        break
                    }
                case .own:
                    if saidOwn != pointer {
                        saidOwn = pointer
                        logger.warning("fleet: the published v\(pointer.version) names this member's own URL; not copied")
                    }
                case .refused, .backingOff:
                    break
                }
            }
            try? await Task.sleep(nanoseconds: 250_000_000)
        }
    }
}

extension FleetService {
    /// Whether this member serves the published pointer, for `FollowLag`.
    private func observeLag() {
        let serving: Bool
        if coordinator.mayAct() {
            serving = true
        } else if let pointer = coordinator.status.published {
            let held = copier.store.dataset.snapshot.version
            let applied = copier.status.applied
            serving = FollowLag.serves(pointer, heldVersion: held, heldChecksum: applied?.version == held ? applied?.checksum : nil)
        } else {
            serving = true
        }
        let now = monotonic()
        lag.withLock { $0.observe(serving: serving, at: now) }
    }

    /// Why this member is degraded as a fleet member: it has not served the published pointer for over a lease.
    private func degradedReason(_ status: FleetStatus, copy: FleetCopier.State) -> String? {
        let lag = lag.withLock { $0 }
        guard lag.stuck, let pointer = status.published else { return nil }
        let seconds = Int(lag.secondsBehind(at: monotonic()))
        let why = CopySchedule.sameResource(pointer.url, member.datasetURL)
            ? "it names this member's own URL (this member holds an unpublished dataset)"
            : copy.lastError ?? "not copied yet"
        return "not serving the published v\(pointer.version) (epoch \(pointer.epoch)) for \(seconds) s: \(why)"
    }

    /// `/health` `coordination`.
    func info() -> CoordinationInfo {
        let status = coordinator.status
        let copy = copier.status
        return CoordinationInfo(
            mode: "fleet", role: status.role.rawValue, epoch: status.epoch,
            leader: .init(name: status.leaderName, url: status.leaderURL),
            leaseSecondsLeft: (status.leaseSecondsLeft * 10).rounded() / 10, etcd: status.etcd,
            lastElection: status.lastElection.map(ISOTimestamp.string), waiting: status.waiting,
            dataset: .init(
                heldEpoch: status.role == .leader ? status.epoch : copy.epoch, publishedVersion: status.published?.version,
                publishedEpoch: status.published?.epoch, lastApplied: copy.lastApplied.map(ISOTimestamp.string), lastError: copy.lastError),
            leaderChanges: status.leaderChanges, leaseRenewalsFailed: status.renewalsFailed,
            degraded: degradedReason(status, copy: copy), stuckEpisodes: lag.withLock { $0.episodes },
            clockSkewSeconds: status.clockSkew.map { ($0 * 10).rounded() / 10 },
            signing: signature == nil ? CoordinationInfo.unsigned : "hmac-sha256", warnings: status.warnings.isEmpty ? nil : status.warnings)
    }
}

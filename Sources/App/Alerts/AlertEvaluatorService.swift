import AlertStore
import Clocks
import Foundation
import Fuel
import HTTP
import Postgres
import Synchronization

/// Evaluates each newly published snapshot once, on the member that polls. When it starts leading it loads the
/// alerts, their states and the last evaluated snapshot from PostgreSQL; LISTEN/NOTIFY keeps the index current; each
/// evaluation's decisions, states and progress are one fenced transaction. A failed write changes nothing here, so
/// the next tick evaluates again from the stored progress: snapshots published while the database was down are
/// decided when it returns, from the prices first seen since the last evaluated one.
///
/// Which prices are new is read from their stamps (`FuelIndex.changes(since:)`), which only move forward on one
/// member (`Snapshot.stamp(at:)`). The stored progress was stamped by the last evaluator, though: a member that takes
/// over merges on top of the snapshot it copied, with its own clock, so its first evaluation reads from the earlier
/// of the two (a price decided twice is not notified twice: its state says so).
final class AlertEvaluatorService: Service {
    let name = "alert-evaluator"
    var whenItEnds: ServiceEndPolicy { .keepServing }
    var stopTimeout: Double { 5 }

    let client: PostgresClient
    let alerts: AlertRepository
    let outbox: OutboxRepository
    let current: @Sendable () -> FuelIndex
    let leadership: AlertLeadership
    let health: AlertsHealthUpdate
    let logger: Logger
    let clock: @Sendable () -> Date
    let interval: Double
    private let pending = Mutex(PendingChanges())
    private let leader = Mutex<AlertLeaderState?>(nil)
    /// The `changedAt` of the snapshot at hand when this member last stood by while another one evaluated.
    private let copied = Mutex<Date?>(nil)

    struct PendingChanges {
        var changes: [AlertRepository.Change] = []
        var reloadAll = false
    }

    init(
        client: PostgresClient, current: @escaping @Sendable () -> FuelIndex, leadership: @escaping AlertLeadership, health: @escaping AlertsHealthUpdate,
        logger: Logger, clock: @escaping @Sendable () -> Date = { Date() }, interval: Double = 0.25
    ) {
        self.client = client
        alerts = AlertRepository(client: client)
        outbox = OutboxRepository(client: client)
        self.current = current
        self.leadership = leadership
        self.health = health
        self.logger = logger
        self.clock = clock
        self.interval = interval
    }

    func run() async throws {
        await withDiscardingTaskGroup { group in
            group.addTask { try? await self.listen() }
            group.addTask {
                while !Task.isCancelled {
                    await self.tick()
                    try? await Task.sleep(nanoseconds: UInt64(self.interval * 1e9))
                }
            }
        }
    }

    private func listen() async throws {
        try await client.listen(on: AlertRepository.changesChannel) { event in
            switch event {
            case .listening:
                // Notifications sent while the connection was down are lost: a leader reloads everything.
                pending.withLock { $0.reloadAll = true }
            case .notification(let note):
                if let change = AlertRepository.Change(payload: note.payload) { pending.withLock { $0.changes.append(change) } }
            }
        }
    }

    /// One step: follow leadership, load or refresh the index, evaluate the published snapshot if it is new.
    func tick() async {
        guard let token = leadership() else {
            if leader.withLock({ $0 }) != nil { logger.notice("alerts: no longer evaluating (not the member that polls)") }
            leader.withLock { $0 = nil }
            let changedAt = current().snapshot.changedAt
            copied.withLock { $0 = changedAt }
            health { $0.evaluatorRole = .standby }
            return
        }
        do {
            var state: AlertLeaderState
            let reload = pending.withLock { pending in
                defer { pending.reloadAll = false }
                return pending.reloadAll
            }
            if let held = leader.withLock({ $0 }), held.token == token, !reload {
                state = held
            } else {
                let started = MonotonicClock.seconds()
                pending.withLock { $0.changes = [] }
                // Fence first: a deposed leader's transaction then either committed before the load below (its
                // states are read) or is refused, so no crossing is decided again under a new version key.
                try await outbox.decide([], token: token)
                var loaded = try await AlertLeaderState.load(alerts: alerts, outbox: outbox, token: token)
                let held = leader.withLock { $0 }
                loaded.lastSnapshot = held?.lastSnapshot
                // A reload while leading resumes from its own progress; a new leadership from what it copied too.
                if held?.token != token { loaded.resumeFrom = copied.withLock { $0 } }
                state = loaded
                logger.notice("alerts: evaluating as \(token): \(state.evaluator.index.count) alerts and \(state.states.count) states loaded in \(String(format: "%.2f", MonotonicClock.seconds() - started)) s")
                leader.withLock { $0 = state }
            }
            try await applyChanges(&state)
            // Held before evaluating: the alert changes are applied (and their seeds committed) even if the
            // evaluation's own transaction fails this tick.
            leader.withLock { $0 = state }
            try await evaluate(&state)
            leader.withLock { $0 = state }
            let count = state.evaluator.index.count
            health { health in
                health.evaluatorRole = .evaluator
                health.database = "connected"
                if health.status == .degraded { health.status = .ok }
                health.alerts = count
            }
        } catch let error as AlertStoreError {
            if case .fenced = error {
                logger.warning("alerts: \(error)")
                leader.withLock { $0 = nil }
                health { $0.evaluatorRole = .standby }
            } else {
                degraded(error)
            }
        } catch {
            degraded(error)
        }
    }

    private func degraded(_ error: Error) {
        logger.warning("alerts: evaluation waits for the database: \(error)")
        health { health in
            health.database = "unreachable: \(error)"
            health.status = .degraded
        }
    }

    /// Alerts written since the last tick: reloaded one by one, their states forgotten, and new ones seeded.
    private func applyChanges(_ state: inout AlertLeaderState) async throws {
        let changes = pending.withLock { pending in
            defer { pending.changes = [] }
            return pending.changes
        }
        guard !changes.isEmpty else { return }
        let fuelIndex = current()
        var zones = ZoneCache()
        var seeded: [Int64] = []
        do {
            // Every changed alert read in one query (a burst of creates is one round trip, not one each).
            let read = try await alerts.watched(ids: changes.compactMap { if case .alert(let id) = $0 { id } else { nil } })
            for change in changes {
                switch change {
                case .alert(let id):
                    let stored = read[id]
                    if let old = state.evaluator.index[id] {
                        for key in state.stateKeys(of: old, in: fuelIndex) { state.states[key] = nil }
                    }
                    if let (alert, zone) = stored {
                        state.evaluator.index.upsert(AlertLeaderState.watched(alert, zone: zone, &zones))
                        seeded.append(id)
                    } else {
                        state.evaluator.index.remove(id: id)
                    }
                case .device(let id):
                    for (alert, zone) in try await alerts.watched(deviceID: id) {
                        state.evaluator.index.upsert(AlertLeaderState.watched(alert, zone: zone, &zones))
                    }
                }
            }
            var outcome = AlertOutcome()
            if !seeded.isEmpty {
                // One poll for the batch: making it walks every station.
                let poll = AlertPoll(index: fuelIndex, changes: [], now: clock())
                for id in seeded {
                    let seed = state.evaluator.seed(id, poll: poll)
                    outcome.decisions += seed.decisions
                    outcome.states.merge(seed.states) { $1 }
                }
            }
            if !outcome.decisions.isEmpty || !outcome.states.isEmpty {
                let inserted = try await outbox.decide(outcome.decisions.map(AlertPayload.outboxDecision),
                                                       states: outcome.states.map { AlertStationState($0.key, $0.value) }, token: state.token)
                state.states.merge(outcome.states) { $1 }
                health { $0.decisions += inserted }
            }
        } catch {
            // Not applied: keep them for the next tick.
            pending.withLock { $0.changes = changes + $0.changes }
            throw error
        }
    }

    private func evaluate(_ state: inout AlertLeaderState) async throws {
        let fuelIndex = current()
        let snapshot = fuelIndex.snapshot
        guard let progress = state.progress else {
            // The first evaluator ever starts from the snapshot at hand: prices before it were never alerts' business.
            let start = EvaluationProgress(snapshotVersion: snapshot.version, snapshotChangedAt: snapshot.changedAt, tomorrowAnnounced: nil)
            try await outbox.decide([], token: state.token, progress: start)
            state.progress = start
            state.lastSnapshot = snapshot
            state.resumeFrom = nil
            return
        }
        guard snapshot.version != progress.snapshotVersion || snapshot.changedAt != progress.snapshotChangedAt else { return }
        let started = MonotonicClock.seconds()
        let since = min(progress.snapshotChangedAt ?? .distantPast, state.resumeFrom ?? .distantFuture)
        let previous = state.lastSnapshot.flatMap { $0.version == progress.snapshotVersion ? $0 : nil }
        let poll = AlertPoll(index: fuelIndex, changes: Array(fuelIndex.changes(since: since)), previous: previous, now: clock())
        let outcome = state.evaluator.evaluate(poll, states: state.states)
        let elapsed = MonotonicClock.seconds() - started
        let next = EvaluationProgress(snapshotVersion: snapshot.version, snapshotChangedAt: snapshot.changedAt,
                                      tomorrowAnnounced: outcome.announcedTomorrow ?? state.evaluator.tomorrowAnnounced)
        let inserted = try await outbox.decide(outcome.decisions.map(AlertPayload.outboxDecision),
                                               states: outcome.states.map { AlertStationState($0.key, $0.value) }, token: state.token, progress: next)
        state.states.merge(outcome.states) { $1 }
        state.evaluator.tomorrowAnnounced = next.tomorrowAnnounced
        state.progress = next
        state.lastSnapshot = snapshot
        state.resumeFrom = nil
        if inserted > 0 { logger.info("alerts: snapshot \(snapshot.version): \(poll.changes.count) changed prices, \(inserted) notifications decided") }
        let now = clock()
        health { health in
            health.lastEvaluatedVersion = snapshot.version
            health.lastEvaluatedAt = now
            health.decisions += inserted
            health.evaluations += 1
            health.evaluationSeconds += elapsed
        }
    }
}

import API
import AlertStore
import Foundation
import Fuel
import HTTP
import Postgres
import Push
import Synchronization

/// Delivers the outbox: due rows to live tokens, each device's immediate pushes folded past 3 an hour, each daily
/// group as one summary. A row is marked sent only after the relay took it, so a crash in between sends it again
/// with the same collapse id (the phone shows it once). A token the relay reports dead stops its device's pushes
/// until the app sends a new one; a relay that stays down leaves rows to be retried, never dropped. A pass that found
/// a full batch is followed by the next at once; the sender idles `interval` only once the outbox has nothing more due
/// or the relay refused a pass (whose rows then wait `retryDelay`).
final class AlertSenderService: Service {
    let name = "alert-sender"
    var whenItEnds: ServiceEndPolicy { .keepServing }
    var stopTimeout: Double { 15 }

    let outbox: OutboxRepository
    let devices: DeviceRepository
    let push: GorushClient?
    /// The public base (`https://petty.example`): a push's `url` is its station's share link on it.
    let shareBase: PublicURL
    let mayAct: @Sendable () -> Bool
    let health: AlertsHealthUpdate
    let logger: Logger
    let clock: @Sendable () -> Date
    /// How the sender idles between passes: `Task.sleep` in a server, injected in tests. A throw ends `run()`.
    let sleep: @Sendable (Double) async throws -> Void
    let interval: Double
    let batch: Int
    let folding = BurstFolding()
    /// After a failed delivery, rows wait this long before the next try.
    let retryDelay: TimeInterval
    private let recent = Mutex<[Int64: [Date]]?>(nil)
    /// When the backlog was last counted: while full batches follow each other, at most once a second.
    private let backlogCountedAt = Mutex<Date?>(nil)

    /// One pass's pushes, as sent, for `record`.
    struct Attempt {
        struct Sent {
            var push: PushPlan.Push
            var deviceID: Int64
            var token: String
            /// How many times its first row was tried before.
            var attempts: Int
        }

        /// In the order sent: `outcome.deliveries` says what became of each.
        var sent: [Sent] = []
        var outcome = GorushClient.Outcome()
    }

    /// What one pass did, as `run()` needs it to choose between the next pass and idling.
    struct Pass: Equatable {
        /// Rows taken from the outbox (at most `batch`).
        var due: Int
        var delivered: Int
        var relayFailed: Bool
    }

    init(
        client: PostgresClient, push: GorushClient?, shareBase: PublicURL, mayAct: @escaping @Sendable () -> Bool, health: @escaping AlertsHealthUpdate,
        logger: Logger, clock: @escaping @Sendable () -> Date = { Date() },
        sleep: @escaping @Sendable (Double) async throws -> Void = { try await Task.sleep(nanoseconds: UInt64($0 * 1e9)) },
        interval: Double = 1, batch: Int = 500, retryDelay: TimeInterval = 30
    ) {
        outbox = OutboxRepository(client: client)
        devices = DeviceRepository(client: client)
        self.push = push
        self.shareBase = shareBase
        self.mayAct = mayAct
        self.health = health
        self.logger = logger
        self.clock = clock
        self.sleep = sleep
        self.interval = interval
        self.batch = batch
        self.retryDelay = retryDelay
    }

    func run() async throws {
        health { $0.relay = self.push == nil ? "not configured" : "ok" }
        while !Task.isCancelled {
            if mayAct(), push != nil {
                do {
                    let pass = try await deliverPass()
                    if pass.due == batch, !pass.relayFailed { continue }
                } catch {
                    logger.warning("alerts: delivery waits for the database: \(error)")
                }
            } else {
                // Another member may send meanwhile: the hourly counts are read from the database again on return.
                recent.withLock { $0 = nil }
            }
            do { try await sleep(interval) } catch { return }
        }
    }

    /// Sends what is due and records it; returns the rows delivered.
    @discardableResult
    func deliverOnce() async throws -> Int { try await deliverPass().delivered }

    /// Takes at most `batch` due rows, sends them and records the outcome.
    func deliverPass() async throws -> Pass {
        let due = try await outbox.dueForDelivery(limit: batch)
        let attempt = try await send(due)
        let delivered = try await record(attempt)
        let now = clock()
        let countBacklog = due.count < batch || backlogCountedAt.withLock { at in
            guard let last = at, now.timeIntervalSince(last) < 1 else { at = now; return true }
            return false
        }
        if countBacklog {
            let backlog = try await outbox.backlog()
            health { health in
                health.backlog = backlog.count
                health.oldestUnsentSeconds = backlog.oldestDueSeconds
            }
        }
        return Pass(due: due.count, delivered: delivered, relayFailed: attempt.outcome.relayFailure != nil)
    }

    /// Plans and sends the pushes for `due`; nothing is marked yet.
    func send(_ due: [DueNotification]) async throws -> Attempt {
        var attempt = Attempt()
        guard let push, !due.isEmpty else { return attempt }
        let now = clock()
        let recentSends = try await recentSends()
        var byDevice: [Int64: [DueNotification]] = [:]
        var order: [Int64] = []
        for row in due {
            if byDevice[row.entry.deviceID] == nil { order.append(row.entry.deviceID) }
            byDevice[row.entry.deviceID, default: []].append(row)
        }
        var messages: [PushMessage] = []
        var quiet: [Date: [Int64]] = [:]
        for deviceID in order {
            let rows = byDevice[deviceID]!
            let zone = TimeZone(identifier: rows[0].timeZone) ?? TimeZone(secondsFromGMT: 0)!
            var byID: [Int64: (DueNotification, AlertPayload)] = [:]
            var pending: [PushPlan.Pending] = []
            for row in rows {
                guard let payload = AlertPayload(json: row.entry.payload) else {
                    try await outbox.recordFailure(ids: [row.entry.id], error: "unreadable payload", retryAt: .distantFuture)
                    continue
                }
                // Due inside its quiet hours (held by the hourly limit, or retried, into them): waits for their end.
                // An end a few seconds away counts as reached: the database's clock chose the row as due, and it may
                // run a little ahead of this one (holding the row again would only repeat the pass).
                if let hours = payload.quietHours, payload.summaryGroup == nil {
                    let end = hours.deliveryTime(for: now, in: zone)
                    if end > now.addingTimeInterval(Self.clockTolerance) {
                        quiet[end, default: []].append(row.entry.id)
                        continue
                    }
                }
                byID[row.entry.id] = (row, payload)
                pending.append(PushPlan.Pending(id: row.entry.id, title: payload.title, message: payload.message, summaryGroup: payload.summaryGroup))
            }
            let (pushes, retryAt) = PushPlan.plan(pending, recentSends: recentSends[deviceID] ?? [], now: now, folding: folding)
            if let retryAt {
                let held = pending.filter { $0.summaryGroup == nil }.map(\.id)
                try await outbox.hold(ids: held, until: retryAt)
            }
            for planned in pushes {
                let (row, payload) = byID[planned.ids[0]]!
                messages.append(PushMessage(
                    token: row.pushToken, platform: row.platform == .ios ? .ios : .android, title: planned.title, message: planned.message,
                    collapseID: row.entry.collapseID,
                    data: PushData(alertID: row.entry.alertID ?? 0, stationID: payload.stationID, fuel: payload.fuel, price: payload.price,
                                   url: shareBase.stationLink(payload.stationID))))
                attempt.sent.append(Attempt.Sent(push: planned, deviceID: deviceID, token: row.pushToken, attempts: row.entry.attempts))
            }
        }
        for (end, ids) in quiet { try await outbox.hold(ids: ids, until: end) }
        self.recent.withLock { $0 = recentSends }
        guard !messages.isEmpty else { return attempt }
        attempt.outcome = try await push.send(messages)
        return attempt
    }

    /// Marks what the relay took, stops dead tokens and schedules the rest again; returns the rows delivered. A push
    /// is judged by its own delivery: a request the relay did not take leaves its pushes (and the later requests')
    /// to be tried again, never the ones it had already taken.
    func record(_ attempt: Attempt) async throws -> Int {
        let now = clock()
        let retryAt = now.addingTimeInterval(retryDelay)
        var delivered: [[Int64]] = []
        var notSent: [Int64] = []
        var failed = 0
        var killed: Set<Int64> = []
        var shown: [Int64] = []
        for (sent, delivery) in zip(attempt.sent, attempt.outcome.deliveries) {
            switch delivery {
            case .accepted:
                delivered.append(sent.push.ids)
                if sent.push.isImmediate { shown.append(sent.deviceID) }
            case .dead:
                if killed.insert(sent.deviceID).inserted {
                    try await devices.markTokenDead(id: sent.deviceID, token: sent.token)
                    logger.notice("alerts: device \(sent.deviceID)'s token \(TokenRedaction.tail(sent.token)) is dead: its pushes stop until the app sends a new one")
                }
                failed += sent.push.ids.count
            case .failed(let error):
                try await outbox.recordFailure(ids: sent.push.ids, error: error, retryAt: now.addingTimeInterval(refusedPushDelay(afterAttempts: sent.attempts)))
                failed += sent.push.ids.count
            case .notSent:
                notSent += sent.push.ids
            }
        }
        // One statement for the pass; each push's rows share one sent_at, which is how a folded push counts once.
        try await outbox.markSent(pushes: delivered)
        let relayFailure = attempt.outcome.relayFailure
        if let relayFailure, !notSent.isEmpty {
            try await outbox.recordFailure(ids: notSent, error: relayFailure.description, retryAt: retryAt)
            logger.warning("alerts: \(notSent.count) notifications not delivered: \(relayFailure)")
        }
        // Only a push the relay took counts towards the device's hourly limit: a refused try is not a notification.
        if !shown.isEmpty {
            recent.withLock { held in
                guard held != nil else { return }
                for deviceID in shown { held![deviceID, default: []].append(now) }
            }
        }
        let count = delivered.reduce(0) { $0 + $1.count }
        let contacted = !attempt.sent.isEmpty
        health { health in
            if let relayFailure { health.relay = relayFailure.description } else if contacted { health.relay = "ok" }
            health.sent += count
            health.failed += failed + notSent.count
        }
        return count
    }

    /// How far the database's clock may run ahead of this one before a quiet-hours end it reached is not reached here.
    static let clockTolerance: TimeInterval = 5

    /// How long a push the relay took but the platform refused (gorush's error, not a dead token) waits before its
    /// next try: `retryDelay`, doubling with each earlier try, at most an hour. A push refused for what it is (too
    /// large, say) is then tried a few times a day instead of every `retryDelay` for ever; a relay that did not take
    /// the request at all is tried again after `retryDelay` each time, so pushes follow it as soon as it is back.
    func refusedPushDelay(afterAttempts attempts: Int) -> TimeInterval {
        min(retryDelay * Double(1 << min(max(attempts, 0), 12)), max(retryDelay, 3_600))
    }

    private func recentSends() async throws -> [Int64: [Date]] {
        let now = clock()
        if let held = recent.withLock({ $0 }) {
            return held.compactMapValues { sends in
                let kept = sends.filter { $0 > now.addingTimeInterval(-folding.window) }
                return kept.isEmpty ? nil : kept
            }
        }
        return try await outbox.recentSends(within: folding.window)
    }
}

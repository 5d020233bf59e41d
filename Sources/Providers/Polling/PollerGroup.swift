import Foundation
import Fuel
import Clocks

/// Runs each poller in its own child task: poll, record the outcome, log one line, sleep until the next step.
/// Outcomes are recorded in `statuses` (the data untouched) and retried with backoff: `base` doubling per consecutive
/// failure up to the poller's interval, with jitter (a random 50–100 % of that). `run()` returns once its task
/// is cancelled (in-flight requests are cancelled too) and every poller has ended.
public final class PollerGroup: Sendable {
    public struct Backoff: Sendable {
        public var base: TimeInterval
        public init(base: TimeInterval = 30) { self.base = base }

        /// The wait after `failures` consecutive failures (>= 1), at most `cap`.
        public func delay(failures: Int, cap: TimeInterval) -> TimeInterval {
            let ceiling = min(cap, base * pow(2, Double(min(30, max(0, failures - 1)))))
            return ceiling * Double.random(in: 0.5...1.0)
        }
    }

    public let pollers: [any ProviderPoller]
    let sink: any ProviderSink
    let log: PollLog
    let backoff: Backoff
    let clock: @Sendable () -> Date
    /// What every step did, for `/metrics`.
    public let stats = PollStats()
    /// Each provider's attempts, failures and next poll, for `/health` and `/metrics`.
    public let statuses: ProviderStatusStore

    public init(
        pollers: [any ProviderPoller], sink: any ProviderSink, log: PollLog, backoff: Backoff = Backoff(),
        statuses: ProviderStatusStore = ProviderStatusStore(), clock: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.statuses = statuses
        self.pollers = pollers
        self.sink = sink
        self.log = log
        self.backoff = backoff
        self.clock = clock
    }

    /// Polls until cancelled, one child task per poller. The first poll of each runs immediately.
    public func run() async {
        await withDiscardingTaskGroup { group in
            for poller in pollers {
                group.addTask(priority: .utility) { await self.loop(poller) }
            }
        }
    }

    private func loop(_ poller: any ProviderPoller) async {
        var failures = 0
        while !Task.isCancelled {
            let next = await step(poller, failures: &failures)
            let wait = next.timeIntervalSince(clock())
            if wait > 0 {
                do { try await Task.sleep(nanoseconds: UInt64(min(wait, 7 * 86_400) * 1e9)) } catch { return }
            }
        }
    }

    /// One poll with its bookkeeping: marks failures, sets the next poll, logs one line. Returns when to poll next.
    public func step(_ poller: any ProviderPoller, failures: inout Int) async -> Date {
        let provider = poller.provider
        let startedAt = clock()
        let started = MonotonicClock.millis()
        let outcome = await poller.poll(at: startedAt, sink: sink)
        if Task.isCancelled { return outcome.next }
        let millis = Int(MonotonicClock.millis() - started)
        let now = clock()
        // A provider failing for days has its prices flagged stale here, since no merge will do it.
        sink.markQuiet(at: now)
        let notes = outcome.notes.isEmpty ? "" : "; " + outcome.notes.joined(separator: "; ")
        stats.record(Self.statsOutcome(outcome.result), for: provider, seconds: Double(millis) / 1000)

        switch outcome.result {
        case .merged(let report) where report.isApplied:
            failures = 0
            statuses.record(outcome.result, for: provider, next: outcome.next, at: now)
            let status = sink.status(of: provider)
            let kind = report.isDelta ? " (delta)" : ""
            log(.info, "poll \(provider.rawValue) ok\(kind): \(status?.stationCount ?? 0) stations, \(status?.priceCount ?? 0) prices, \(report.pricesChanged) changed, \(report.rejectedOutliers) outliers, \(millis) ms, next \(Self.clockTime(outcome.next))\(notes)")
            return outcome.next
        case .merged(let report):
            failures += 1
            let next = retryTime(poller, failures: failures, now: now)
            statuses.record(outcome.result, for: provider, next: next, at: now)
            let reason: String
            switch report.outcome {
            case .rejected(let text), .ignored(let text): reason = text
            case .applied: reason = "applied"
            }
            log(.warning, "poll \(provider.rawValue) rejected (\(reason)): \(keeping(provider)), \(millis) ms, next in \(Self.duration(next.timeIntervalSince(now)))\(notes)")
            return next
        case .failed(let error, let request):
            failures += 1
            let next = retryTime(poller, failures: failures, now: now)
            statuses.record(outcome.result, for: provider, next: next, at: now)
            log(.warning, "poll \(provider.rawValue) failed (\(error.kind)): \(keeping(provider)), next in \(Self.duration(next.timeIntervalSince(now))) [\(request): \(error)]\(notes)")
            return next
        case .idle(let what):
            statuses.record(outcome.result, for: provider, next: outcome.next, at: now)
            log(.info, "poll \(provider.rawValue): \(what), next \(Self.clockTime(outcome.next))")
            return outcome.next
        }
    }

    static func statsOutcome(_ result: PollOutcome.Result) -> ProviderPollCounts.Outcome {
        switch result {
        case .merged(let report): report.isApplied ? .ok : .rejected
        case .failed: .failed
        case .idle: .idle
        }
    }

    private func retryTime(_ poller: any ProviderPoller, failures: Int, now: Date) -> Date {
        now.addingTimeInterval(max(1, backoff.delay(failures: failures, cap: poller.interval)))
    }

    /// "keeping 80 stations from 2026-04-22T06:00Z" (what is still served).
    private func keeping(_ provider: ProviderID) -> String {
        guard let status = sink.status(of: provider), status.stationCount > 0 else { return "no data held" }
        let source = status.source == .sample ? " (sample)" : ""
        return "keeping \(status.stationCount) stations\(source) from \(status.asOf.map(Self.minuteStamp) ?? "unknown time")"
    }

    /// `06:30:00Z`
    static func clockTime(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let secondOfDay = ((seconds % 86_400) + 86_400) % 86_400
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(secondOfDay / 3600)):\(two(secondOfDay % 3600 / 60)):\(two(secondOfDay % 60))Z"
    }

    /// `2026-04-22T06:00Z`
    static func minuteStamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let clock = clockTime(date)
        return "\(WireTime.dayString(days: days))T\(clock.prefix(5))Z"
    }

    /// `2m13s`, `45s`, `1h05m`.
    static func duration(_ interval: TimeInterval) -> String {
        let total = max(0, Int(interval.rounded()))
        if total < 60 { return "\(total)s" }
        if total < 3600 { return "\(total / 60)m\(total % 60 < 10 ? "0" : "")\(total % 60)s" }
        let minutes = total % 3600 / 60
        return "\(total / 3600)h\(minutes < 10 ? "0" : "")\(minutes)m"
    }
}

import Foundation
import Fuel
import Synchronization
import Testing
@testable import Providers

/// The shared fetch → adapt → apply step against a fake fetch and a recording sink, run through `PollerGroup.step`
/// so that what `ProviderStatusStore` and `PollStats` record is what production records.
@Suite struct PollStepTests {
    static let now = Date(timeIntervalSince1970: 1_780_000_000)
    static let interval: TimeInterval = 600
    static let request = ProviderRequest(base: URL(string: "https://fake.example")!, path: "/prices", timeout: 5)

    /// A sink that keeps what reached it and answers every merge with `outcome`.
    final class RecordingSink: ProviderSink {
        let outcome: MergeReport.Outcome
        private let applied = Mutex<[ProviderUpdate]>([])

        init(outcome: MergeReport.Outcome = .applied) { self.outcome = outcome }

        var updates: [ProviderUpdate] { applied.withLock { $0 } }

        func apply(_ update: ProviderUpdate, at now: Date) -> MergeReport {
            applied.withLock { $0.append(update) }
            return MergeReport(provider: update.provider, source: .live, isDelta: update.isDelta, outcome: outcome)
        }

        func rollOver(at now: Date) {}
        func markQuiet(at now: Date) {}
        func status(of provider: ProviderID) -> ProviderStatus? { nil }
    }

    /// A poller made of nothing but a request, an adapter and a schedule.
    final class StepPoller: ProviderPoller {
        let provider = ProviderID.vic
        let interval = PollStepTests.interval
        let plan = "fake"
        let fetch: PollStep.Fetch
        let adapt: @Sendable (Data) throws(AdapterError) -> Adapted
        let adapterCalls = Mutex(0)
        let lastOutcome = Mutex<PollOutcome?>(nil)

        init(fetch: @escaping PollStep.Fetch, adapt: @escaping @Sendable (Data) throws(AdapterError) -> Adapted) {
            self.fetch = fetch
            self.adapt = adapt
        }

        func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
            let outcome = await PollStep.apply(PollStepTests.request, fetch: fetch, sink: sink, at: now, next: now.addingTimeInterval(interval), notes: ["a note"]) { body throws(AdapterError) in
                adapterCalls.withLock { $0 += 1 }
                return try adapt(body)
            }
            lastOutcome.withLock { $0 = outcome }
            return outcome
        }
    }

    struct Run {
        var outcome: PollOutcome
        var health: ProviderHealth
        var stats: ProviderPollCounts
        var lines: [String]
        var sink: RecordingSink
        var adapterCalls: Int
    }

    static func answering(_ result: Result<ProviderResponse, ProviderError>) -> PollStep.Fetch {
        { request in
            #expect(request.label == "GET /prices")
            return result
        }
    }

    static let ok: PollStep.Fetch = answering(.success(ProviderResponse(status: 200, body: Data("rows".utf8))))

    static func adapted(_ body: Data) -> Adapted {
        var tally = AdapterTally()
        tally.record(.unmappedFuel, 2)
        return Adapted(update: ProviderUpdate(provider: .vic, stations: [], prices: [], asOf: now), tally: tally)
    }

    /// One `PollerGroup.step` of a `StepPoller`: the outcome the step returned and what the group recorded of it.
    func run(
        fetch: @escaping PollStep.Fetch = ok, sink: RecordingSink = RecordingSink(),
        adapt: @escaping @Sendable (Data) throws(AdapterError) -> Adapted = { body in adapted(body) }
    ) async throws -> Run {
        let poller = StepPoller(fetch: fetch, adapt: adapt)
        let lines = Mutex<[String]>([])
        let group = PollerGroup(pollers: [poller], sink: sink, log: PollLog { _, line in lines.withLock { $0.append(line) } }, clock: { Self.now })
        var failures = 0
        _ = await group.step(poller, failures: &failures)
        let health = try #require(group.statuses.health(of: .vic))
        let stats = try #require(group.stats.snapshot[.vic])
        let outcome = try #require(poller.lastOutcome.withLock { $0 })
        #expect(stats.polls == 1)
        return Run(
            outcome: outcome, health: health, stats: stats, lines: lines.withLock { $0 }, sink: sink,
            adapterCalls: poller.adapterCalls.withLock { $0 })
    }

    func failure(_ run: Run) -> (ProviderError, String)? {
        if case .failed(let error, let request) = run.outcome.result { return (error, request) }
        return nil
    }

    @Test func aReadableAnswerIsMergedAndCountsAsASuccess() async throws {
        let run = try await run()
        #expect(run.outcome.isApplied)
        #expect(run.outcome.next == Self.now.addingTimeInterval(Self.interval))
        #expect(run.outcome.notes == ["a note", "skipped unmappedFuel=2"])
        #expect(run.sink.updates.count == 1)
        #expect(run.adapterCalls == 1)
        #expect(run.health.state == .ok)
        #expect(run.health.lastSuccess == Self.now)
        #expect(run.health.consecutiveFailures == 0 && run.health.totalFailures == 0)
        #expect(run.health.lastError == nil)
        #expect(run.health.nextPoll == Self.now.addingTimeInterval(Self.interval))
        #expect(run.stats.outcomes == [.ok: 1])
        #expect(run.lines.count == 1 && run.lines[0].hasPrefix("poll vic ok: ") && run.lines[0].hasSuffix("; a note; skipped unmappedFuel=2"), "\(run.lines)")
    }

    @Test(arguments: [
        (ProviderError.transport("connection refused"), "GET /prices: transport: connection refused", "failed (transport)"),
        (ProviderError.httpStatus(503, reason: ""), "GET /prices: http 503", "failed (http 503)"),
        (ProviderError.timeout, "GET /prices: timeout", "failed (timeout)"),
    ])
    func anUnansweredRequestIsAFailureNamingItAndNeverReachesTheAdapter(error: ProviderError, recorded: String, logged: String) async throws {
        let run = try await run(fetch: Self.answering(.failure(error)))
        let (returned, request) = try #require(failure(run))
        #expect(returned == error)
        #expect(request == "GET /prices")
        #expect(run.outcome.notes.isEmpty, "notes go with a merge only")
        #expect(run.adapterCalls == 0)
        #expect(run.sink.updates.isEmpty)
        #expect(run.health.state == .failing)
        #expect(run.health.lastError == recorded)
        #expect(run.health.lastErrorAt == Self.now && run.health.lastSuccess == nil)
        #expect(run.health.consecutiveFailures == 1 && run.health.totalFailures == 1)
        #expect(run.stats.outcomes == [.failed: 1])
        #expect(run.lines.count == 1 && run.lines[0].hasPrefix("poll vic \(logged): no data held, next in ") && run.lines[0].hasSuffix("[\(recorded)]"), "\(run.lines)")
    }

    @Test(arguments: [
        (AdapterError.decodingFailed(source: "fake", context: "bad row"), ProviderError.decoding("fake: decoding failed: bad row")),
        (AdapterError.emptyPayload(source: "fake"), ProviderError.implausible("empty body")),
    ])
    func anUnreadableBodyIsAFailureAndNothingIsMerged(thrown: AdapterError, error: ProviderError) async throws {
        let run = try await run(adapt: { _ throws(AdapterError) in throw thrown })
        let (returned, request) = try #require(failure(run))
        #expect(returned == error)
        #expect(request == "GET /prices")
        #expect(run.adapterCalls == 1)
        #expect(run.sink.updates.isEmpty)
        #expect(run.health.state == .failing)
        #expect(run.health.lastError == "GET /prices: \(error)")
        #expect(run.health.consecutiveFailures == 1)
        #expect(run.stats.outcomes == [.failed: 1])
        #expect(run.lines.first?.hasPrefix("poll vic failed (\(error.kind)): ") == true, "\(run.lines)")
    }

    @Test func aRefusedMergeIsStaleAndCountedOnce() async throws {
        let run = try await run(sink: RecordingSink(outcome: .rejected(reason: "empty full update")))
        guard case .merged(let report) = run.outcome.result else { Issue.record("not merged: \(run.outcome.result)"); return }
        #expect(report.outcome == .rejected(reason: "empty full update"))
        #expect(!run.outcome.isApplied)
        #expect(run.sink.updates.count == 1)
        #expect(run.health.state == .stale)
        #expect(run.health.lastError == "empty full update")
        #expect(run.health.lastSuccess == nil)
        #expect(run.health.consecutiveFailures == 1 && run.health.totalFailures == 1)
        #expect(run.health.nextPoll.map { $0 > Self.now && $0 <= Self.now.addingTimeInterval(Self.interval) } == true, "retried with backoff")
        #expect(run.stats.outcomes == [.rejected: 1])
        #expect(run.lines.first?.hasPrefix("poll vic rejected (empty full update): no data held") == true, "\(run.lines)")
    }
}

import Foundation
import Fuel

/// One provider's schedule + fetch + adapt + merge step. `PollerGroup` runs it in a loop: it calls `poll`,
/// handles failures (mark failing, back off with jitter), logs one line and sleeps until the next step.
public protocol ProviderPoller: AnyObject, Sendable {
    var provider: ProviderID { get }
    /// The normal interval; failure backoff never waits longer than this.
    var interval: TimeInterval { get }
    /// For the start-up line, e.g. `wa (every 1800s, tomorrow from 14:30 Perth)`.
    var plan: String { get }
    /// Fetches, adapts and merges whatever is due at `now`. Merges go through `sink` with the schedule's next
    /// time; failures are returned (not marked) so the runner can choose the backoff.
    func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome
}

/// What one poll step did.
public struct PollOutcome: Sendable {
    public enum Result: Sendable {
        /// An update reached the merge (applied, or rejected as empty/implausible: see the report).
        case merged(MergeReport)
        /// No usable data: the request that failed and why. Nothing reached the merge.
        case failed(ProviderError, request: String)
        /// Nothing was due or nothing new was published (WA tomorrow before 14:30); not a failure.
        case idle(String)
    }

    public var result: Result
    /// When the schedule wants the next step (after success; the runner may retry earlier after a failure).
    public var next: Date
    /// Extra facts for the log line (adapter tally, tomorrow publication).
    public var notes: [String]

    public init(_ result: Result, next: Date, notes: [String] = []) {
        self.result = result
        self.next = next
        self.notes = notes
    }
}

/// Log lines from pollers; the App bridges it to its logger.
public struct PollLog: Sendable {
    public enum Level: Sendable { case debug, info, notice, warning, error }
    private let sink: @Sendable (Level, String) -> Void

    public init(_ sink: @escaping @Sendable (Level, String) -> Void) { self.sink = sink }

    public static let silent = PollLog { _, _ in }

    public func callAsFunction(_ level: Level, _ message: String) { sink(level, message) }
}

extension ProviderClient {
    /// Sends `request` and hands back the body, or the failure with the request's label.
    func fetch(_ request: ProviderRequest, auth: (any ProviderAuth)?) async -> Result<ProviderResponse, PollFailure> {
        switch await send(request, auth: auth) {
        case .success(let response): .success(response)
        case .failure(let error): .failure(PollFailure(error: error, request: request.label))
        }
    }
}

/// A failed request inside a poll step.
struct PollFailure: Error, Sendable {
    var error: ProviderError
    var request: String

    /// An adapter that could not read a 2xx body.
    init(adapter error: AdapterError, request: String) {
        switch error {
        case .emptyPayload: self.error = .implausible("empty body")
        default: self.error = .decoding(error.description)
        }
        self.request = request
    }

    init(error: ProviderError, request: String) {
        self.error = error
        self.request = request
    }

    var outcome: PollOutcome.Result { .failed(error, request: request) }
}

/// Wall-clock helpers in a state's zone.
enum LocalTime {
    /// `hour:minute` local on the calendar day containing `instant`.
    static func instant(_ instant: Date, hour: Int, minute: Int = 0, in zone: TimeZone) -> Date {
        CalendarDay(containing: instant, in: zone).instant(hour: hour, minute: minute, in: zone)
    }

    /// `candidate`, moved into the daily window `[start, end)` local hours: before it, to the window's start that
    /// day; at or after its end, to the next day's start.
    static func clamp(_ candidate: Date, toDailyWindow start: Int, _ end: Int, in zone: TimeZone) -> Date {
        let day = CalendarDay(containing: candidate, in: zone)
        let opens = day.instant(hour: start, in: zone)
        let closes = day.instant(hour: end, in: zone)
        if candidate < opens { return opens }
        if candidate >= closes { return day.advanced(by: 1).instant(hour: start, in: zone) }
        return candidate
    }
}

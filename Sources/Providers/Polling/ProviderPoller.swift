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

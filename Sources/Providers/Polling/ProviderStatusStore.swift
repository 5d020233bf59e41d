import Foundation
import Fuel
import Synchronization

/// Each provider's `ProviderHealth`, owned by the pollers and read by `/health` and `/metrics`: the one place
/// failures are counted. Starts empty with the process (after a restart the first poll, which runs at once,
/// fills it; the data's own `as_of` survives in the snapshot).
public final class ProviderStatusStore: ProviderHealthSource {
    private let health = Mutex<[ProviderID: ProviderHealth]>([:])

    public init() {}

    public var all: [ProviderID: ProviderHealth] { health.withLock { $0 } }

    public func health(of provider: ProviderID) -> ProviderHealth? { health.withLock { $0[provider] } }

    /// Records what one poll step did and when the next one is due.
    public func record(_ result: PollOutcome.Result, for provider: ProviderID, next: Date, at now: Date) {
        health.withLock { all in
            var health = all[provider] ?? ProviderHealth()
            switch result {
            case .merged(let report):
                switch report.outcome {
                case .applied: health.succeeded(at: now, keepingState: report.isTomorrowOnly)
                case .rejected(let reason): health.failed(.stale, error: reason, at: now)
                // Misdated tomorrow prices or a sample offered over live data: nothing to say about today's feed.
                case .ignored: health.lastAttempt = now
                }
            case .failed(let error, let request):
                health.failed(.failing, error: "\(request): \(error)", at: now)
            case .idle:
                break
            }
            health.nextPoll = next
            all[provider] = health
        }
    }
}

extension ProviderHealth {
    fileprivate mutating func succeeded(at now: Date, keepingState: Bool) {
        lastAttempt = now
        lastSuccess = now
        consecutiveFailures = 0
        if !keepingState { state = .ok }
    }

    fileprivate mutating func failed(_ state: State, error: String, at now: Date) {
        self.state = state
        lastAttempt = now
        lastError = error
        lastErrorAt = now
        consecutiveFailures += 1
        totalFailures += 1
    }
}

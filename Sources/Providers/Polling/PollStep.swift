import Foundation
import Fuel

/// The one fetch → adapt → apply path every poller goes through. A poller supplies its requests, its adapter and its
/// schedule; a transport or HTTP failure and an adapter that cannot read the body both come back as a `PollFailure`
/// naming the request, and `PollerGroup.step` records whatever the step returns in `ProviderStatusStore`, the one
/// place failures are counted.
enum PollStep {
    /// Sends one request: `ProviderClient.send` with the provider's auth, or a fake in tests.
    typealias Fetch = @Sendable (ProviderRequest) async -> Result<ProviderResponse, ProviderError>

    /// Fetches `request` and reads its body with `adapt`. `label` names the request in the failure (default
    /// `request.label`). Runs on the caller's actor, so `adapt` may read the poller's state.
    nonisolated(nonsending) static func read<Value>(
        _ request: ProviderRequest, label: String? = nil, fetch: Fetch, adapt: (Data) throws(AdapterError) -> Value
    ) async -> Result<Value, PollFailure> {
        let label = label ?? request.label
        switch await fetch(request) {
        case .failure(let error): return .failure(PollFailure(error: error, request: label))
        case .success(let response):
            do throws(AdapterError) {
                return .success(try adapt(response.body))
            } catch {
                return .failure(PollFailure(adapter: error, request: label))
            }
        }
    }

    /// Fetches, adapts and merges one full (or delta) update: the whole step of a poller with a single request.
    /// `notes` go with a merge, followed by the adapter's tally when it skipped rows; a failure carries none.
    nonisolated(nonsending) static func apply(
        _ request: ProviderRequest, fetch: Fetch, sink: any ProviderSink, at now: Date, next: Date, notes: [String] = [],
        adapt: (Data) throws(AdapterError) -> Adapted
    ) async -> PollOutcome {
        switch await read(request, fetch: fetch, adapt: adapt) {
        case .failure(let failure): return PollOutcome(failure.outcome, next: next)
        case .success(let adapted):
            let report = sink.apply(adapted.update, at: now)
            let skipped = adapted.tally.skipped > 0 ? ["skipped \(adapted.tally)"] : []
            return PollOutcome(.merged(report), next: next, notes: notes + skipped)
        }
    }
}

extension ProviderClient {
    /// This client's `send` with `auth`, as the step's fetch.
    func fetcher(auth: (any ProviderAuth)?) -> PollStep.Fetch {
        { request in await self.send(request, auth: auth) }
    }
}

import Foundation
import Fuel

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

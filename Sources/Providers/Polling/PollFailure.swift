import Foundation
import Fuel

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

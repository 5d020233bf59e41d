import Foundation

/// Where and how a poller reaches its provider: the client, the provider's auth (nil: none), the base URL and the
/// per-request deadline. Every request a poller sends is built and sent through it.
struct ProviderEndpoint: Sendable {
    let client: ProviderClient
    let auth: (any ProviderAuth)?
    let base: URL
    let timeout: TimeInterval

    /// `path` under `base`, with `query` in order.
    func request(_ path: String, query: [(String, String)] = []) -> ProviderRequest {
        ProviderRequest(base: base, path: path, query: query, timeout: timeout)
    }

    /// The client's `send` with this provider's auth, as a poll step's fetch.
    var fetch: PollStep.Fetch { client.fetcher(auth: auth) }
}

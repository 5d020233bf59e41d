import Foundation

/// The auth step that runs before each request: it returns the headers to add (and may call the network
/// for a token first). After a 401/403 the client calls `invalidate()`; if it returns true the request is
/// retried once with fresh headers.
public protocol ProviderAuth: Sendable {
    func headers(for request: ProviderRequest, client: ProviderClient) async -> Result<[(name: String, value: String)], ProviderError>
    func invalidate() async -> Bool
    /// Values scrubbed from every error text.
    var secrets: [String] { get }
}

/// QLD and SA (Informed Sources): `Authorization: FPDAPI SubscriberToken=<token>` (PROVIDERS.md §3).
public struct SubscriberTokenAuth: ProviderAuth {
    let token: String

    public init(token: String) { self.token = token }

    public func headers(for request: ProviderRequest, client: ProviderClient) async -> Result<[(name: String, value: String)], ProviderError> {
        .success([("Authorization", "FPDAPI SubscriberToken=\(token)"), ("Content-Type", "application/json"), ("Accept", "application/json")])
    }

    public func invalidate() async -> Bool { false }
    public var secrets: [String] { [token] }
}

/// VIC Fair Fuel: `x-consumer-id`, a fresh `x-transactionid` UUID per request, `Accept: application/json` (§5).
public struct ConsumerIDAuth: ProviderAuth {
    let consumerID: String

    public init(consumerID: String) { self.consumerID = consumerID }

    public func headers(for request: ProviderRequest, client: ProviderClient) async -> Result<[(name: String, value: String)], ProviderError> {
        .success([("x-consumer-id", consumerID), ("x-transactionid", UUID().uuidString.lowercased()), ("Accept", "application/json")])
    }

    public func invalidate() async -> Bool { false }
    public var secrets: [String] { [consumerID] }
}

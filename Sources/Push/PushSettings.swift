import Foundation

/// Where pushes go: a gorush relay (`PETTY_PUSH_URL`, its base such as `http://127.0.0.1:8088`), the optional
/// `Authorization` header it wants (`PETTY_PUSH_AUTHORIZATION`) and the iOS bundle id (`PETTY_PUSH_TOPIC`).
public struct PushSettings: Sendable, Equatable {
    public var url: URL
    public var authorization: String?
    public var topic: String?
    /// One request's deadline.
    public var timeout: TimeInterval
    /// At most this many tokens in one request.
    public var batchSize: Int
    public var retry: PushRetry

    public init(url: URL, authorization: String? = nil, topic: String? = nil, timeout: TimeInterval = 10, batchSize: Int = 100, retry: PushRetry = PushRetry()) {
        self.url = url
        self.authorization = authorization
        self.topic = topic
        self.timeout = timeout
        self.batchSize = max(1, min(batchSize, 100))
        self.retry = retry
    }

    /// nil without `PETTY_PUSH_URL` (pushes are then not sent; decisions wait in the outbox).
    public init?(environment: [String: String]) throws {
        guard let text = environment["PETTY_PUSH_URL"], !text.isEmpty else { return nil }
        guard let url = URL(string: text), let scheme = url.scheme?.lowercased(), ["http", "https"].contains(scheme), url.host != nil else {
            throw PushError.configuration("PETTY_PUSH_URL must be an http(s) URL such as http://127.0.0.1:8088, not \(text)")
        }
        self.init(url: url, authorization: environment["PETTY_PUSH_AUTHORIZATION"].flatMap { $0.isEmpty ? nil : $0 },
                  topic: environment["PETTY_PUSH_TOPIC"].flatMap { $0.isEmpty ? nil : $0 })
    }

    /// `<base>/api/push`.
    public var endpoint: URL { url.appendingPathComponent("api/push") }
}

import Foundation

/// One request to a provider: method, URL (base URL + documented path + query), headers and a timeout.
/// Auth headers are added by a `ProviderAuth` step just before sending, never stored in logs or errors.
public struct ProviderRequest: Sendable {
    public var method: String
    public var url: URL
    public var headers: [(name: String, value: String)]
    /// The whole-request deadline (connect, send, wait and read), in seconds.
    public var timeout: TimeInterval

    public init(method: String = "GET", url: URL, headers: [(name: String, value: String)] = [], timeout: TimeInterval = 30) {
        self.method = method
        self.url = url
        self.headers = headers
        self.timeout = timeout
    }

    /// `base` is a scheme + host (+ port, + path prefix) as validated by `ProviderSettings`; `path` is the documented
    /// path (`/FuelPriceCheck/v1/fuel/prices`), appended to the prefix; `query` is encoded in order.
    public init(
        method: String = "GET", base: URL, path: String, query: [(String, String)] = [],
        headers: [(name: String, value: String)] = [], timeout: TimeInterval = 30
    ) {
        var components = URLComponents(url: base, resolvingAgainstBaseURL: false) ?? URLComponents()
        var prefix = components.percentEncodedPath
        while prefix.hasSuffix("/") { prefix.removeLast() }
        components.percentEncodedPath = prefix + (path.hasPrefix("/") ? path : "/" + path)
        if query.isEmpty {
            components.percentEncodedQuery = nil
        } else {
            components.percentEncodedQuery = query.map { "\(Self.encode($0.0))=\(Self.encode($0.1))" }.joined(separator: "&")
        }
        components.fragment = nil
        self.init(method: method, url: components.url ?? base, headers: headers, timeout: timeout)
    }

    /// The method and path, for logs and error messages: never the query (it could carry a secret) or headers.
    public var label: String { "\(method) \(url.path.isEmpty ? "/" : url.path)" }

    public func header(_ name: String) -> String? {
        headers.last { $0.name.caseInsensitiveCompare(name) == .orderedSame }?.value
    }

    /// Sets `name` (replacing any earlier value with the same name, case-insensitively).
    public mutating func setHeader(_ name: String, _ value: String) {
        headers.removeAll { $0.name.caseInsensitiveCompare(name) == .orderedSame }
        headers.append((name, value))
    }

    private static let queryAllowed: CharacterSet = {
        var set = CharacterSet.alphanumerics
        set.insert(charactersIn: "-._~")
        return set
    }()

    static func encode(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: queryAllowed) ?? text
    }
}

/// What came back: status, headers (lower-cased names) and the whole body (bounded by the client's size cap).
public struct ProviderResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data
    /// How long the exchange took, retries and auth included.
    public var elapsed: TimeInterval
    public var attempts: Int

    public init(status: Int, headers: [String: String] = [:], body: Data, elapsed: TimeInterval = 0, attempts: Int = 1) {
        self.status = status
        self.headers = headers
        self.body = body
        self.elapsed = elapsed
        self.attempts = attempts
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

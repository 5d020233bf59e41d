import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
import Clocks
#endif

/// A thin `URLSession` wrapper for provider APIs: ephemeral (no cache, no cookies), a real `User-Agent`,
/// a whole-request deadline, a response size cap, no redirects to another origin, bounded retries with jittered
/// backoff, an auth step before each attempt (refreshed once on 401/403), and typed errors that never carry secrets
/// or upstream bodies.
public final class ProviderClient: Sendable {
    public struct Options: Sendable {
        public var userAgent: String
        /// Bodies larger than this fail with `.tooLarge` without being read further.
        public var maxResponseBytes: Int
        public var retry: RetryPolicy
        /// Client-side rate limit shared by every request through this client, or nil.
        public var budget: RequestBudget?
        /// Asked before every attempt; false ends the request without sending it (a fleet member that is not the
        /// leader, or whose lease deadline passed while the poll was under way).
        public var gate: (@Sendable () -> Bool)?

        public init(
            userAgent: String = ProviderClient.defaultUserAgent(version: "dev"), maxResponseBytes: Int = 16 << 20,
            retry: RetryPolicy = RetryPolicy(), budget: RequestBudget? = nil
        ) {
            self.userAgent = userAgent
            self.maxResponseBytes = maxResponseBytes
            self.retry = retry
            self.budget = budget
        }
    }

    public static func defaultUserAgent(version: String) -> String {
        "Petty/\(version) (+https://github.com/petty; fuel price app server)"
    }

    public let options: Options
    let redactor: Redactor
    private let transfers: BoundedTransfers

    /// `secrets` are scrubbed from every error text this client returns (the auth step adds its own).
    public init(options: Options = Options(), secrets: [String] = []) {
        self.options = options
        self.redactor = Redactor(secrets: secrets)
        let configuration = URLSessionConfiguration.ephemeral
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.urlCache = nil
        configuration.httpCookieStorage = nil
        configuration.httpShouldSetCookies = false
        configuration.httpCookieAcceptPolicy = .never
        configuration.httpAdditionalHeaders = ["User-Agent": options.userAgent]
        let queue = BoundedDelegateQueue(limit: 256, name: "petty-provider-client")
        transfers = BoundedTransfers(configuration: configuration, queue: queue, redirects: .sameOrigin)
    }

    deinit { transfers.invalidate() }

    /// Sends `request` with retries. `auth` runs before every attempt; after a 401/403 it is invalidated and the
    /// request retried once with a fresh credential. Only a 2xx response is a success.
    public func send(_ request: ProviderRequest, auth: (any ProviderAuth)? = nil) async -> Result<ProviderResponse, ProviderError> {
        let started = MonotonicClock.seconds()
        var attempt = 0
        var refreshedAuth = false
        while true {
            attempt += 1
            var prepared = request
            if let auth {
                switch await auth.headers(for: request, client: self) {
                case .success(let fields): for field in fields { prepared.setHeader(field.name, field.value) }
                case .failure(let error): return .failure(redact(error, auth: auth))
                }
            }
            if let budget = options.budget, !(await budget.acquire()) {
                return .failure(.transport("cancelled"))
            }
            if let gate = options.gate, !gate() { return .failure(.transport("not the fleet leader")) }
            let error: ProviderError
            var retryAfter: TimeInterval?
            switch await perform(prepared) {
            case .success(var response):
                if (200..<300).contains(response.status) {
                    response.elapsed = MonotonicClock.elapsed(since: started)
                    response.attempts = attempt
                    return .success(response)
                }
                if response.status == 401 || response.status == 403 {
                    if !refreshedAuth, let auth, await auth.invalidate() {
                        refreshedAuth = true
                        attempt -= 1
                        continue
                    }
                    return .failure(redact(.auth(Self.authText(status: response.status)), auth: auth))
                }
                error = .httpStatus(response.status, reason: Self.statusPhrase(response.status))
                retryAfter = RetryPolicy.retryAfterSeconds(response.header("Retry-After"))
            case .failure(let failure):
                error = failure
            }
            guard error.isRetryable, attempt < options.retry.maxAttempts, !Task.isCancelled,
                  let delay = options.retry.delay(afterAttempt: attempt, retryAfter: retryAfter)
            else { return .failure(redact(error, auth: auth)) }
            let lastError = error
            do { try await Task.sleep(nanoseconds: UInt64(delay * 1e9)) } catch { return .failure(redact(lastError, auth: auth)) }
        }
    }

    private func redact(_ error: ProviderError, auth: (any ProviderAuth)?) -> ProviderError {
        error.redacted(by: redactor).redacted(by: Redactor(secrets: auth?.secrets ?? []))
    }

    /// One exchange, no retries: the status and body (up to the cap) or a transport/timeout/size error.
    func perform(_ request: ProviderRequest) async -> Result<ProviderResponse, ProviderError> {
        var urlRequest = URLRequest(url: request.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: request.timeout)
        urlRequest.httpMethod = request.method
        for field in request.headers { urlRequest.setValue(field.value, forHTTPHeaderField: field.name) }
        if request.header("User-Agent") == nil { urlRequest.setValue(options.userAgent, forHTTPHeaderField: "User-Agent") }
        // Uncompressed, so a body's size on the wire is its size in memory; the delegate still counts decoded bytes
        // because a hostile server may compress anyway (URLSession inflates whatever it is sent).
        urlRequest.setValue("identity", forHTTPHeaderField: "Accept-Encoding")
        switch await transfers.fetch(urlRequest, limit: options.maxResponseBytes, deadline: request.timeout) {
        case .success(let reply): return .success(ProviderResponse(status: reply.status, headers: reply.headers, body: reply.body))
        case .failure(let failure): return .failure(ProviderError(failure))
        }
    }

    static func authText(status: Int) -> String { "rejected with http \(status)" }

    /// The standard phrase for a status ("service unavailable"), from Foundation's fixed table: never the
    /// upstream's own status line or body, which a misbehaving host controls.
    static func statusPhrase(_ status: Int) -> String {
        HTTPURLResponse.localizedString(forStatusCode: status).lowercased()
    }
}

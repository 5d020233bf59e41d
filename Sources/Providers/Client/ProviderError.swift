import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Why a provider exchange produced no usable data. Each case is distinct so logs, `/health` and backoff can
/// tell them apart. Texts carry at most the method and URL path (never the query or headers), and pass through
/// the client's `Redactor` so a configured secret can never leak into them.
public enum ProviderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No HTTP exchange completed: DNS, connect, TLS, reset, cancelled.
    case transport(String)
    /// The request deadline passed.
    case timeout
    /// A non-success status other than auth, with a short reason of our own (the status's standard phrase, or why
    /// we refused the response). Never the body: whatever an upstream, or a host it redirects to, sends could
    /// otherwise be shown on the public `/health`.
    case httpStatus(Int, reason: String)
    /// 401/403, or the token step failed.
    case auth(String)
    /// The body could not be decoded or adapted.
    case decoding(String)
    /// The body decoded but does not look like real data (wrong day, nothing usable).
    case implausible(String)
    /// The body is larger than the cap; reading stopped there.
    case tooLarge(limit: Int)

    public var description: String {
        switch self {
        case .transport(let detail): "transport: \(detail)"
        case .timeout: "timeout"
        case .httpStatus(let status, let reason): reason.isEmpty ? "http \(status)" : "http \(status): \(reason)"
        case .auth(let detail): "auth: \(detail)"
        case .decoding(let detail): "decoding: \(detail)"
        case .implausible(let detail): "implausible: \(detail)"
        case .tooLarge(let limit): "response larger than \(limit) bytes"
        }
    }

    /// A short tag for log lines: `http 503`, `timeout`, `transport`.
    public var kind: String {
        switch self {
        case .transport: "transport"
        case .timeout: "timeout"
        case .httpStatus(let status, _): "http \(status)"
        case .auth: "auth"
        case .decoding: "decoding"
        case .implausible: "implausible"
        case .tooLarge: "too large"
        }
    }

    /// Worth another attempt: transport trouble, timeouts, 5xx, 408 and 429.
    public var isRetryable: Bool {
        switch self {
        case .transport, .timeout: true
        case .httpStatus(let status, _): status >= 500 || status == 408 || status == 429
        default: false
        }
    }

    /// The same error with every secret in its text replaced.
    func redacted(by redactor: Redactor) -> ProviderError {
        switch self {
        case .transport(let text): .transport(redactor.scrub(text))
        case .httpStatus(let status, let reason): .httpStatus(status, reason: redactor.scrub(reason))
        case .auth(let text): .auth(redactor.scrub(text))
        case .decoding(let text): .decoding(redactor.scrub(text))
        case .implausible(let text): .implausible(redactor.scrub(text))
        case .timeout, .tooLarge: self
        }
    }
}

/// Replaces configured secrets (and their Base64 forms in `Basic` headers) in any text that leaves the client.
public struct Redactor: Sendable {
    private let secrets: [String]

    public init(secrets: [String]) {
        // Longest first, so a secret containing another is replaced whole. Very short values would mangle text.
        self.secrets = Array(Set(secrets.filter { $0.count >= 4 })).sorted { $0.count > $1.count }
    }

    public func scrub(_ text: String) -> String {
        var text = text
        for secret in secrets where text.contains(secret) {
            text = text.replacingOccurrences(of: secret, with: "[redacted]")
        }
        // Credentials we may not know the value of (an access token) are recognised by their scheme.
        for pattern in Self.credentialPatterns where text.range(of: pattern, options: [.regularExpression, .caseInsensitive]) != nil {
            text = text.replacingOccurrences(of: pattern, with: "$1[redacted]", options: [.regularExpression, .caseInsensitive])
        }
        return text
    }

    static let credentialPatterns = [
        #"(Bearer\s+)[^\s,;"']+"#,
        #"(Basic\s+)[A-Za-z0-9+/=]+"#,
        #"(SubscriberToken=)[^\s,;"']+"#,
        #"("?access_token"?\s*[:=]\s*"?)[^\s,;"']+"#,
    ]
}

extension ProviderError {
    /// Redirects to another origin are refused: URLSession would copy every credential header onto them (NSW's
    /// Bearer, `apikey` and Basic key:secret, the Informed Sources subscriber token, VIC's consumer id), and an
    /// `https` to `http` hop is another origin, so credentials never drop to clear text.
    static let crossOriginRedirectReason = "redirect to another origin refused"

    /// Why a transfer had no reply, as the client reports it: a URL error by its code's meaning, never
    /// `localizedDescription` (which may quote the URL).
    init(_ failure: BoundedTransfers.Failure) {
        switch failure {
        case .tooLarge(let limit): self = .tooLarge(limit: limit)
        case .deadline: self = .timeout
        case .redirectRefused(let status): self = .httpStatus(status, reason: Self.crossOriginRedirectReason)
        case .noResponse: self = .transport("no HTTP response")
        case .cancelled: self = .transport("cancelled")
        case .transport(let code): self = Self.transport(code)
        }
    }

    private static func transport(_ code: URLError.Code) -> ProviderError {
        let reason: String
        switch code {
        case .timedOut: return .timeout
        case .cancelled: reason = "cancelled"
        case .cannotFindHost, .dnsLookupFailed: reason = "cannot resolve host"
        case .cannotConnectToHost: reason = "cannot connect to host"
        case .networkConnectionLost: reason = "connection lost"
        case .notConnectedToInternet: reason = "not connected to the internet"
        case .secureConnectionFailed, .serverCertificateUntrusted, .serverCertificateHasBadDate,
             .serverCertificateNotYetValid, .serverCertificateHasUnknownRoot, .clientCertificateRejected:
            reason = "TLS failure"
        case .badServerResponse: reason = "bad server response"
        case .httpTooManyRedirects, .redirectToNonExistentLocation: reason = "redirect failure"
        case .dataLengthExceedsMaximum: reason = "response too large"
        case .zeroByteResource: reason = "empty response"
        default: reason = "URL error \(code.rawValue)"
        }
        return .transport(reason)
    }
}

import Foundation
import Fuel

/// Which providers to poll, with their credentials, base URLs and intervals. Parsed from `PETTY_*` variables by
/// `ProviderSettings.fromEnvironment(_:)`; `description` never shows a secret.
///
/// The memberwise default (`ProviderSettings()`) polls nothing, so code-built configurations (tests) never reach
/// the internet. The environment default is different: every provider whose credentials are set, plus WA.
public struct ProviderSettings: Sendable, Equatable, CustomStringConvertible {
    public struct Credentials: Sendable, Equatable {
        public var nswAPIKey: String?
        public var nswAPISecret: String?
        public var qldToken: String?
        public var saToken: String?
        public var vicConsumerID: String?

        public init(nswAPIKey: String? = nil, nswAPISecret: String? = nil, qldToken: String? = nil, saToken: String? = nil, vicConsumerID: String? = nil) {
            self.nswAPIKey = nswAPIKey
            self.nswAPISecret = nswAPISecret
            self.qldToken = qldToken
            self.saToken = saToken
            self.vicConsumerID = vicConsumerID
        }

        /// Every configured secret, for redaction.
        public var all: [String] { [nswAPIKey, nswAPISecret, qldToken, saToken, vicConsumerID].compactMap { $0 } }
    }

    /// Enabled providers, in `ProviderID` order.
    public var enabled: [ProviderID]
    public var credentials: Credentials
    /// Base URLs: NSW's serves TAS too.
    public var baseURLs: [ProviderID: URL]
    /// Poll intervals in seconds (NSW: the delta interval; QLD/SA: prices; VIC: prices; WA: today's feeds).
    public var intervals: [ProviderID: TimeInterval]
    /// Whole-request deadline for provider calls.
    public var requestTimeout: TimeInterval
    public var maxResponseBytes: Int
    /// `User-Agent` sent to providers (the App sets its version).
    public var userAgent: String

    public init(
        enabled: [ProviderID] = [], credentials: Credentials = Credentials(), baseURLs: [ProviderID: URL] = [:],
        intervals: [ProviderID: TimeInterval] = [:], requestTimeout: TimeInterval = 30, maxResponseBytes: Int = 16 << 20,
        userAgent: String = ProviderClient.defaultUserAgent(version: "dev")
    ) {
        self.enabled = Array(Set(enabled)).sorted()
        self.credentials = credentials
        self.baseURLs = baseURLs
        self.intervals = intervals
        self.requestTimeout = requestTimeout
        self.maxResponseBytes = maxResponseBytes
        self.userAgent = userAgent
    }

    public static let defaultBaseURLs: [ProviderID: URL] = [
        .nsw: URL(string: "https://api.onegov.nsw.gov.au")!,
        .tas: URL(string: "https://api.onegov.nsw.gov.au")!,
        .wa: URL(string: "https://www.fuelwatch.wa.gov.au")!,
        .qld: URL(string: "https://fppdirectapi-prod.fuelpricesqld.com.au")!,
        .sa: URL(string: "https://fppdirectapi-prod.safuelpricinginformation.com.au")!,
        .vic: URL(string: "https://api.fuel.service.vic.gov.au")!,
    ]

    /// Default intervals (PROVIDERS.md §1.7, §2.2, §3, §4, §5).
    public static let defaultIntervals: [ProviderID: TimeInterval] = [
        .nsw: 1800, .tas: 3600, .wa: 1800, .qld: 300, .sa: 300, .vic: 3600,
    ]

    /// The smallest interval accepted from the environment (QLD/SA: the spec's once a minute).
    public static let minimumIntervals: [ProviderID: TimeInterval] = [
        .nsw: 60, .tas: 60, .wa: 60, .qld: 60, .sa: 60, .vic: 60,
    ]

    public func baseURL(_ provider: ProviderID) -> URL {
        baseURLs[provider] ?? Self.defaultBaseURLs[provider]!
    }

    public func interval(_ provider: ProviderID) -> TimeInterval {
        intervals[provider] ?? Self.defaultIntervals[provider]!
    }

    /// Redacted: says which credentials are set, never their values.
    public var description: String {
        func mark(_ value: String?) -> String { value == nil ? "unset" : "set" }
        let providers = enabled.isEmpty ? "none" : enabled.map(\.rawValue).joined(separator: ",")
        let urls = ProviderID.allCases.map { "\($0.rawValue)=\(baseURL($0).absoluteString)" }.joined(separator: " ")
        let every = ProviderID.allCases.map { "\($0.rawValue)=\(Int(interval($0)))s" }.joined(separator: " ")
        return "providers=\(providers) nsw_api_key=\(mark(credentials.nswAPIKey)) nsw_api_secret=\(mark(credentials.nswAPISecret)) "
            + "qld_token=\(mark(credentials.qldToken)) sa_token=\(mark(credentials.saToken)) vic_consumer_id=\(mark(credentials.vicConsumerID)) "
            + "base_urls[\(urls)] intervals[\(every)] timeout=\(Int(requestTimeout))s"
    }
}

public struct ProviderSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    public let description: String
    init(_ message: String) { description = message }
}

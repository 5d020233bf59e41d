import Foundation

/// NSW FuelCheck OAuth client credentials (PROVIDERS.md §1.2–1.3), shared by the NSW and TAS pollers.
///
/// `GET /oauth/client_credential/accesstoken?grant_type=client_credentials` with `Authorization: Basic
/// base64(key:secret)` answers `{"access_token": "...", "expires_in": "43199", ...}` (`expires_in` is a string
/// in the real response; a number is accepted too). The token is cached until `expires_in - margin`; concurrent
/// callers share one token request. Data calls get `Authorization: Bearer`, `apikey`, a UUID `transactionid`,
/// `requesttimestamp` (`dd/MM/yyyy hh:mm:ss AM` in UTC) and `Content-Type: application/json; charset=utf-8`.
public actor NSWOAuth: ProviderAuth {
    public static let tokenPath = "/oauth/client_credential/accesstoken"

    let base: URL
    let apiKey: String
    let apiSecret: String
    let timeout: TimeInterval
    /// Renew this long before the stated expiry.
    let margin: TimeInterval
    private var cached: (token: String, validUntil: Date)?
    private var inFlight: Task<Result<String, ProviderError>, Never>?
    /// Token requests made so far (each costs one call of the monthly quota).
    public private(set) var tokenRequests = 0

    public nonisolated let secrets: [String]

    public init(base: URL, apiKey: String, apiSecret: String, timeout: TimeInterval = 30, margin: TimeInterval = 600) {
        self.base = base
        self.apiKey = apiKey
        self.apiSecret = apiSecret
        self.timeout = timeout
        self.margin = margin
        self.secrets = [apiKey, apiSecret, Data("\(apiKey):\(apiSecret)".utf8).base64EncodedString()]
    }

    public func headers(for request: ProviderRequest, client: ProviderClient) async -> Result<[(name: String, value: String)], ProviderError> {
        switch await token(client: client) {
        case .failure(let error): return .failure(error)
        case .success(let token):
            return .success([
                ("Authorization", "Bearer \(token)"),
                ("apikey", apiKey),
                ("transactionid", UUID().uuidString.lowercased()),
                ("requesttimestamp", Self.requestTimestamp(Date())),
                ("Content-Type", "application/json; charset=utf-8"),
                ("Accept", "application/json"),
            ])
        }
    }

    public func invalidate() async -> Bool {
        cached = nil
        return true
    }

    /// The cached token, or a new one.
    func token(client: ProviderClient) async -> Result<String, ProviderError> {
        if let cached, Date() < cached.validUntil { return .success(cached.token) }
        if let inFlight { return await inFlight.value }
        let task = Task { await self.requestToken(client: client) }
        inFlight = task
        let result = await task.value
        inFlight = nil
        return result
    }

    private func requestToken(client: ProviderClient) async -> Result<String, ProviderError> {
        tokenRequests += 1
        let basic = Data("\(apiKey):\(apiSecret)".utf8).base64EncodedString()
        let request = ProviderRequest(
            base: base, path: Self.tokenPath, query: [("grant_type", "client_credentials")],
            headers: [("Authorization", "Basic \(basic)"), ("Accept", "application/json")], timeout: timeout)
        switch await client.send(request) {
        case .failure(.httpStatus(let status, _)) where (400..<500).contains(status) && status != 408 && status != 429:
            return .failure(.auth("token request answered \(status)"))
        case .failure(.auth(let detail)):
            return .failure(.auth("token request: \(detail)"))
        case .failure(let error):
            return .failure(error)
        case .success(let response):
            guard let parsed = Self.parseToken(response.body) else {
                return .failure(.auth("token response has no access_token"))
            }
            let lifetime = parsed.expiresIn ?? 3600
            let usable = lifetime > margin * 2 ? lifetime - margin : lifetime / 2
            cached = (parsed.token, Date().addingTimeInterval(usable))
            return .success(parsed.token)
        }
    }

    /// `access_token` and `expires_in` (a string like `"43199"` or a number).
    static func parseToken(_ body: Data) -> (token: String, expiresIn: TimeInterval?)? {
        guard let parsed = try? JSONDecoder().decode(TokenResponse.self, from: body), let token = parsed.accessToken, !token.isEmpty else {
            return nil
        }
        return (token, parsed.expiresIn.flatMap { $0 > 0 ? $0 : nil })
    }

    private struct TokenResponse: Decodable {
        let accessToken: String?
        let expiresIn: TimeInterval?

        private enum CodingKeys: String, CodingKey {
            case accessToken = "access_token"
            case expiresIn = "expires_in"
        }

        init(from decoder: Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            accessToken = try? container.decode(String.self, forKey: .accessToken)
            if let text = try? container.decode(String.self, forKey: .expiresIn) {
                expiresIn = TimeInterval(text.trimmingCharacters(in: .whitespaces))
            } else {
                expiresIn = try? container.decode(TimeInterval.self, forKey: .expiresIn)
            }
        }
    }

    /// `15/01/2026 02:32:51 AM`: UTC, 12-hour clock, as the published clients send it.
    public static func requestTimestamp(_ date: Date) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down))
        let days = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let (year, month, day) = WireTime.civil(days: days)
        let secondOfDay = seconds - days * 86_400
        let hour24 = secondOfDay / 3600
        let minute = secondOfDay % 3600 / 60
        let second = secondOfDay % 60
        let hour12 = hour24 % 12 == 0 ? 12 : hour24 % 12
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(two(day))/\(two(month))/\(year) \(two(hour12)):\(two(minute)):\(two(second)) \(hour24 < 12 ? "AM" : "PM")"
    }
}

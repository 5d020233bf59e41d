import Foundation
import Testing
@testable import Providers

/// The URLSession client against the fake provider on loopback: retries, deadlines, the size cap, auth header
/// shapes and secrets kept out of error texts.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct ClientTests {
    static let quickRetry = RetryPolicy(maxAttempts: 3, baseDelay: 0.01, maxDelay: 0.05, maxRetryAfter: 5)
    static let secrets = [FakeProvider.apiKey, FakeProvider.apiSecret, FakeProvider.subscriberToken, FakeProvider.consumerID]

    func client(cap: Int = 16 << 20, retry: RetryPolicy = quickRetry) -> ProviderClient {
        ProviderClient(options: .init(userAgent: ProviderClient.defaultUserAgent(version: "test"), maxResponseBytes: cap, retry: retry), secrets: Self.secrets)
    }

    func qldRequest(_ fake: FakeProvider, timeout: TimeInterval = 5) -> ProviderRequest {
        ProviderRequest(base: fake.baseURL, path: InformedSourcesPoller.brandsPath, query: [("countryId", "21")], timeout: timeout)
    }

    let qldAuth = SubscriberTokenAuth(token: FakeProvider.subscriberToken)

    @Test func aRequestURLIsTheBaseURLPrefixPlusTheDocumentedPathAndEncodedQuery() {
        let base = URL(string: "https://proxy.example:8443/fuel/nsw")!
        let request = ProviderRequest(base: base, path: "/FuelPriceCheck/v2/fuel/prices", query: [("states", "NSW|TAS")])
        #expect(request.url.absoluteString == "https://proxy.example:8443/fuel/nsw/FuelPriceCheck/v2/fuel/prices?states=NSW%7CTAS")
        #expect(request.label == "GET /fuel/nsw/FuelPriceCheck/v2/fuel/prices")
    }

    @Test func fiveHundredsAreRetriedWithBackoffUntilSuccess() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .times(2, .status(503)))
        let response = try await client().send(qldRequest(fake), auth: qldAuth).get()
        #expect(response.status == 200)
        #expect(response.attempts == 3)
        #expect(fake.count(InformedSourcesPoller.brandsPath) == 3)
    }

    @Test func retriesAreBoundedAndTheLastErrorIsReturned() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .status(500))
        let result = await client().send(qldRequest(fake), auth: qldAuth)
        #expect(result.failure == .httpStatus(500, reason: "internal server error"))
        #expect(fake.count(InformedSourcesPoller.brandsPath) == 3)
    }

    @Test func retryAfterSecondsIsHonoured() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .times(1, .status(429, retryAfter: "1")))
        let started = Date()
        let response = try await client().send(qldRequest(fake), auth: qldAuth).get()
        #expect(response.status == 200)
        #expect(Date().timeIntervalSince(started) >= 0.95)
    }

    @Test func aRetryAfterBeyondTheLimitIsNotWaitedFor() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .status(429, retryAfter: "3600"))
        let started = Date()
        let result = await client().send(qldRequest(fake), auth: qldAuth)
        #expect(result.failure == .httpStatus(429, reason: "too many requests"))
        // Far below the hour asked for, far above what a busy suite adds (a 2 s bound failed under CI's load).
        #expect(Date().timeIntervalSince(started) < 60)
        #expect(fake.count(InformedSourcesPoller.brandsPath) == 1)
    }

    @Test func aStatusErrorTextHasTheStatusAndItsPhraseButNoBody() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .status(503))
        let result = await client(retry: .none).send(qldRequest(fake), auth: qldAuth)
        #expect(result.failure?.description == "http 503: service unavailable")
        fake.set(InformedSourcesPoller.brandsPath, .status(401))
        let auth = await client(retry: .none).send(qldRequest(fake), auth: qldAuth)
        #expect(auth.failure?.description == "auth: rejected with http 401")
    }

    @Test func clientErrorsAreNotRetried() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .status(404))
        let result = await client().send(qldRequest(fake), auth: qldAuth)
        guard case .failure(.httpStatus(404, _)) = result else { Issue.record("expected 404, got \(result)"); return }
        #expect(fake.count(InformedSourcesPoller.brandsPath) == 1)
    }

    @Test func aHungProviderTimesOutAtTheDeadline() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .hang(seconds: 8))
        let started = Date()
        let result = await client(retry: .none).send(qldRequest(fake, timeout: 0.5), auth: qldAuth)
        #expect(result.failure == .timeout)
        // Behaviour, not speed: the client gives up long before the provider would have answered.
        #expect(Date().timeIntervalSince(started) < 5)
    }

    @Test func aBodyOverTheCapFailsAsTooLarge() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        fake.set(InformedSourcesPoller.brandsPath, .huge(bytes: 300_000))
        let result = await client(cap: 64 * 1024).send(qldRequest(fake), auth: qldAuth)
        #expect(result.failure == .tooLarge(limit: 64 * 1024))
        // Within the cap the same body is fine.
        let ok = await client(cap: 1 << 20).send(qldRequest(fake), auth: qldAuth)
        #expect(ok.success?.body.count == 300_000)
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let fake = try FakeProvider().start()
        let base = fake.baseURL
        fake.stop()
        let result = await client(retry: .none).send(ProviderRequest(base: base, path: "/x", timeout: 2))
        guard case .failure(.transport(let detail)) = result else { Issue.record("expected transport, got \(result)"); return }
        #expect(!detail.isEmpty)
    }

    @Test func nswDataCallsCarryTheBearerTokenAndDocumentedHeaders() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        let auth = NSWOAuth(base: fake.baseURL, apiKey: FakeProvider.apiKey, apiSecret: FakeProvider.apiSecret)
        let client = client()
        for _ in 0..<2 {
            let response = try await client.send(ProviderRequest(base: fake.baseURL, path: NSWPoller.fullPath, timeout: 5), auth: auth).get()
            #expect(response.status == 200)
        }
        // One token for both calls (cached), fetched with Basic base64(key:secret).
        #expect(fake.tokensIssued == 1)
        let token = try #require(fake.last(NSWOAuth.tokenPath))
        #expect(token.header("Authorization") == "Basic " + Data("\(FakeProvider.apiKey):\(FakeProvider.apiSecret)".utf8).base64EncodedString())
        #expect(token.query == "grant_type=client_credentials")
        let data = try #require(fake.last(NSWPoller.fullPath))
        #expect(data.header("Authorization") == "Bearer token-1")
        #expect(data.header("apikey") == FakeProvider.apiKey)
        #expect(UUID(uuidString: data.header("transactionid") ?? "") != nil)
        #expect(FakeProvider.isRequestTimestamp(data.header("requesttimestamp") ?? ""))
        #expect(data.header("Content-Type") == "application/json; charset=utf-8")
        #expect(data.header("User-Agent") == "Petty/test (+https://github.com/petty; fuel price app server)")
        let transactionIDs = fake.requests.filter { $0.path == NSWPoller.fullPath }.compactMap { $0.header("transactionid") }
        #expect(Set(transactionIDs).count == 2)
    }

    @Test func anExpiredTokenIsRefreshedOnceAndTheCallRetried() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        let auth = NSWOAuth(base: fake.baseURL, apiKey: FakeProvider.apiKey, apiSecret: FakeProvider.apiSecret)
        let client = client()
        _ = try await client.send(ProviderRequest(base: fake.baseURL, path: NSWPoller.fullPath, timeout: 5), auth: auth).get()
        fake.expireToken()
        let response = try await client.send(ProviderRequest(base: fake.baseURL, path: NSWPoller.fullPath, timeout: 5), auth: auth).get()
        #expect(response.status == 200)
        #expect(fake.tokensIssued == 2)
        #expect(fake.count(NSWOAuth.tokenPath) == 2)
        #expect(fake.count(NSWPoller.fullPath) == 3)
    }

    @Test func wrongNSWCredentialsFailAsAuthWithoutQuotingThem() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        let auth = NSWOAuth(base: fake.baseURL, apiKey: FakeProvider.apiKey, apiSecret: "wrong-secret-0001")
        let result = await client().send(ProviderRequest(base: fake.baseURL, path: NSWPoller.fullPath, timeout: 5), auth: auth)
        guard case .failure(let error) = result, case .auth = error else { Issue.record("expected auth, got \(result)"); return }
        #expect(!error.description.contains("wrong-secret-0001"))
        #expect(!error.description.contains(FakeProvider.apiKey))
        #expect(fake.count(NSWPoller.fullPath) == 0)
    }

    @Test func subscriberAndConsumerHeadersHaveTheDocumentedShapes() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        _ = try await client().send(qldRequest(fake), auth: qldAuth).get()
        #expect(fake.last(InformedSourcesPoller.brandsPath)?.header("Authorization") == "FPDAPI SubscriberToken=\(FakeProvider.subscriberToken)")
        let vic = ProviderRequest(base: fake.baseURL, path: VICPoller.brandsPath, timeout: 5)
        _ = try await client().send(vic, auth: ConsumerIDAuth(consumerID: FakeProvider.consumerID)).get()
        let recorded = try #require(fake.last(VICPoller.brandsPath))
        #expect(recorded.header("x-consumer-id") == FakeProvider.consumerID)
        #expect(UUID(uuidString: recorded.header("x-transactionid") ?? "") != nil)
        #expect(recorded.header("Accept") == "application/json")
    }

    @Test func secretsEchoedByAProviderNeverReachTheErrorText() async throws {
        let fake = try FakeProvider().start()
        defer { fake.stop() }
        for path in [InformedSourcesPoller.brandsPath, NSWPoller.fullPath, VICPoller.pricesPath] { fake.set(path, .echoHeaders) }
        let nsw = NSWOAuth(base: fake.baseURL, apiKey: FakeProvider.apiKey, apiSecret: FakeProvider.apiSecret)
        let results = [
            await client(retry: .none).send(qldRequest(fake), auth: qldAuth),
            await client(retry: .none).send(ProviderRequest(base: fake.baseURL, path: NSWPoller.fullPath, timeout: 5), auth: nsw),
            await client(retry: .none).send(ProviderRequest(base: fake.baseURL, path: VICPoller.pricesPath, timeout: 5), auth: ConsumerIDAuth(consumerID: FakeProvider.consumerID)),
        ]
        for result in results {
            let text = try #require(result.failure).description
            #expect(!text.contains("error for request"), "upstream body in: \(text)")
            for secret in Self.secrets + ["token-1"] { #expect(!text.contains(secret), "secret in: \(text)") }
        }
    }

    @Test func theRedactorScrubsKnownSecretsAndCredentialSchemes() {
        let redactor = Redactor(secrets: ["s3cr3t-value"])
        #expect(redactor.scrub("key s3cr3t-value here") == "key [redacted] here")
        #expect(redactor.scrub("Authorization: Bearer abc.def-123") == "Authorization: Bearer [redacted]")
        #expect(redactor.scrub("Authorization: FPDAPI SubscriberToken=0f0f-11") == "Authorization: FPDAPI SubscriberToken=[redacted]")
        #expect(redactor.scrub(#"{"access_token":"zzz999","expires_in":"1"}"#) == #"{"access_token":"[redacted]","expires_in":"1"}"#)
    }

    @Test func requestTimestampsUseTheTwelveHourUTCForm() {
        #expect(NSWOAuth.requestTimestamp(Date(timeIntervalSince1970: 1_768_444_371)) == "15/01/2026 02:32:51 AM")
        #expect(NSWOAuth.requestTimestamp(Date(timeIntervalSince1970: 1_768_444_371 + 12 * 3600)) == "15/01/2026 02:32:51 PM")
        #expect(NSWOAuth.requestTimestamp(Date(timeIntervalSince1970: 1_768_435_200)) == "15/01/2026 12:00:00 AM")
    }

    @Test func tokenExpiryIsReadAsAStringOrANumber() {
        #expect(NSWOAuth.parseToken(Data(#"{"access_token":"a","expires_in":"43199"}"#.utf8))?.expiresIn == 43199)
        #expect(NSWOAuth.parseToken(Data(#"{"access_token":"a","expires_in":3600}"#.utf8))?.expiresIn == 3600)
        #expect(NSWOAuth.parseToken(Data(#"{"expires_in":3600}"#.utf8)) == nil)
    }

    @Test func backoffIsFullJitterUnderAnExponentialCeiling() {
        let policy = RetryPolicy(maxAttempts: 5, baseDelay: 1, maxDelay: 8)
        for attempt in 1...6 {
            let ceiling = min(8, pow(2, Double(attempt - 1)))
            for _ in 0..<50 {
                let delay = try! #require(policy.delay(afterAttempt: attempt, retryAfter: nil))
                #expect(delay >= 0 && delay <= ceiling)
            }
        }
        #expect(policy.delay(afterAttempt: 1, retryAfter: 30) == 30)
        #expect(policy.delay(afterAttempt: 1, retryAfter: 500) == nil)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
    var success: Success? { if case .success(let value) = self { value } else { nil } }
}

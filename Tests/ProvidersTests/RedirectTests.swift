import Foundation
import Testing
@testable import Providers

/// Redirects never carry a credential to another origin: every kind of provider credential is sent to a host that
/// answers 302 to another port on loopback. The request fails with a typed error whose text (what `/health` shows
/// as `last_error`) names the refusal and carries nothing the other host could have said.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct RedirectTests {
    static let refused = ProviderError.httpStatus(302, reason: "redirect to another origin refused")
    static let credentialHeaders = ["authorization", "apikey", "x-consumer-id"]

    func client() -> ProviderClient {
        ProviderClient(options: .init(userAgent: ProviderClient.defaultUserAgent(version: "test"), retry: ClientTests.quickRetry), secrets: ClientTests.secrets)
    }

    func nswAuth(_ fakes: RedirectingProvider) -> NSWOAuth {
        NSWOAuth(base: fakes.originURL, apiKey: FakeProvider.apiKey, apiSecret: FakeProvider.apiSecret)
    }

    /// The refusal is what the caller gets, and the other origin saw no request, so no credential either.
    func expectRefused(_ result: Result<ProviderResponse, ProviderError>, _ fakes: RedirectingProvider, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.failure == Self.refused, sourceLocation: sourceLocation)
        let text = result.failure?.description ?? "\(result)"
        #expect(text == "http 302: redirect to another origin refused", sourceLocation: sourceLocation)
        #expect(!text.contains("TARGET-SAYS") && !text.contains("moved"), "upstream body in: \(text)", sourceLocation: sourceLocation)
        for secret in ClientTests.secrets + [RedirectingProvider.token] {
            #expect(!text.contains(secret), sourceLocation: sourceLocation)
        }
        for request in fakes.targetRequests {
            for name in Self.credentialHeaders {
                #expect(request.header(name) == nil, "\(name) reached the other origin on \(request.path)", sourceLocation: sourceLocation)
            }
        }
        #expect(fakes.targetRequests.isEmpty, "the other origin was contacted", sourceLocation: sourceLocation)
    }

    @Test func theNSWKeyAndSecretOnTheTokenCallAreNotRedirectedToAnotherOrigin() async throws {
        let fakes = try RedirectingProvider(redirectTokenCall: true)
        defer { fakes.stop() }
        let request = ProviderRequest(base: fakes.originURL, path: NSWPoller.fullPath, timeout: 5)
        expectRefused(await client().send(request, auth: nswAuth(fakes)), fakes)
    }

    @Test func theNSWBearerTokenAndAPIKeyAreNotRedirectedToAnotherOrigin() async throws {
        let fakes = try RedirectingProvider()
        defer { fakes.stop() }
        let request = ProviderRequest(base: fakes.originURL, path: NSWPoller.fullPath, timeout: 5)
        expectRefused(await client().send(request, auth: nswAuth(fakes)), fakes)
    }

    @Test func theSubscriberTokenIsNotRedirectedToAnotherOrigin() async throws {
        let fakes = try RedirectingProvider()
        defer { fakes.stop() }
        let request = ProviderRequest(base: fakes.originURL, path: InformedSourcesPoller.pricesPath, query: [("countryId", "21")], timeout: 5)
        expectRefused(await client().send(request, auth: SubscriberTokenAuth(token: FakeProvider.subscriberToken)), fakes)
    }

    @Test func theVICConsumerIDIsNotRedirectedToAnotherOrigin() async throws {
        let fakes = try RedirectingProvider()
        defer { fakes.stop() }
        let request = ProviderRequest(base: fakes.originURL, path: VICPoller.pricesPath, timeout: 5)
        expectRefused(await client().send(request, auth: ConsumerIDAuth(consumerID: FakeProvider.consumerID)), fakes)
    }

    @Test func aRedirectWithinTheSameOriginIsFollowedWithItsCredentials() async throws {
        let fakes = try RedirectingProvider()
        defer { fakes.stop() }
        let request = ProviderRequest(base: fakes.originURL, path: "/same-origin/prices", timeout: 5)
        let response = try await client().send(request, auth: ConsumerIDAuth(consumerID: FakeProvider.consumerID)).get()
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"landed":true}"#)
        #expect(fakes.landingRequests.last?.header("x-consumer-id") == FakeProvider.consumerID)
        #expect(fakes.targetRequests.isEmpty)
    }

    @Test func originsCompareSchemeHostAndEffectivePort() {
        func origin(_ text: String) -> Origin? { Origin(URL(string: text)!) }
        #expect(origin("http://API.example/a") == origin("http://api.example:80/b?c=d"))
        #expect(origin("https://api.example/a") == origin("https://api.example:443/"))
        #expect(origin("https://api.example/a") != origin("http://api.example/a"))
        #expect(origin("https://api.example/a") != origin("https://api.example:8443/a"))
        #expect(origin("https://api.example/a") != origin("https://api.example.evil.example/a"))
        #expect(origin("ftp://api.example/a") == nil)
    }
}

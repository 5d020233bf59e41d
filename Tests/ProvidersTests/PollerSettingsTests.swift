import Foundation
import Fuel
import Testing
@testable import Providers

/// `PETTY_PROVIDERS`, credentials, base URLs and intervals from the environment, and the start-up plan.
struct PollerSettingsTests {
    static let nswCredentials = ["PETTY_NSW_API_KEY": "key-123456", "PETTY_NSW_API_SECRET": "secret-654321"]

    func parse(_ env: [String: String]) throws -> ProviderSettings { try ProviderSettings.fromEnvironment(env) }

    func error(_ env: [String: String]) -> String? {
        do { _ = try ProviderSettings.fromEnvironment(env); return nil } catch { return error.description }
    }

    @Test func theCodeDefaultPollsNothing() {
        #expect(ProviderSettings().enabled.isEmpty)
    }

    @Test func theEnvironmentDefaultIsWAPlusEveryProviderWithCredentials() throws {
        #expect(try parse([:]).enabled == [.wa])
        #expect(try parse(Self.nswCredentials).enabled == [.nsw, .tas, .wa])
        let all = Self.nswCredentials.merging(["PETTY_QLD_TOKEN": "q-token", "PETTY_SA_TOKEN": "s-token", "PETTY_VIC_CONSUMER_ID": "v-id"]) { $1 }
        #expect(try parse(all).enabled == ProviderID.allCases)
    }

    @Test func anExplicitListIsTakenAsIsAndNoneMeansNone() throws {
        #expect(try parse(["PETTY_PROVIDERS": "none"]).enabled.isEmpty)
        #expect(try parse(["PETTY_PROVIDERS": " WA , nsw,wa "].merging(Self.nswCredentials) { $1 }).enabled == [.nsw, .wa])
        #expect(try parse(["PETTY_PROVIDERS": "vic", "PETTY_VIC_CONSUMER_ID": "v-id"]).enabled == [.vic])
    }

    @Test func anUnknownProviderIsAnErrorListingTheValidOnes() {
        #expect(error(["PETTY_PROVIDERS": "wa,nt"]) == "PETTY_PROVIDERS: unknown provider 'nt'; valid: nsw, tas, wa, qld, sa, vic, or none alone")
        #expect(error(["PETTY_PROVIDERS": "none,wa"])?.contains("unknown provider 'none'") == true)
    }

    @Test func aNamedProviderWithoutCredentialsNamesTheMissingVariable() {
        #expect(error(["PETTY_PROVIDERS": "qld"]) == "PETTY_PROVIDERS includes qld but PETTY_QLD_TOKEN is not set")
        #expect(error(["PETTY_PROVIDERS": "tas", "PETTY_NSW_API_KEY": "k-12345"]) == "PETTY_PROVIDERS includes tas but PETTY_NSW_API_SECRET is not set")
        #expect(error(["PETTY_NSW_API_KEY": "k-12345"]) == "nsw is partly configured: PETTY_NSW_API_SECRET is not set")
    }

    @Test func baseURLsAreValidatedAndKeepTheirPathPrefix() throws {
        let settings = try parse(["PETTY_NSW_BASE_URL": "http://127.0.0.1:8099/proxy/", "PETTY_WA_BASE_URL": "https://fw.example"])
        #expect(settings.baseURL(.nsw).absoluteString == "http://127.0.0.1:8099/proxy")
        #expect(settings.baseURL(.tas) == settings.baseURL(.nsw))
        #expect(settings.baseURL(.wa).absoluteString == "https://fw.example")
        #expect(settings.baseURL(.qld).absoluteString == "https://fppdirectapi-prod.fuelpricesqld.com.au")
        #expect(error(["PETTY_WA_BASE_URL": "ftp://fw.example"])?.contains("http or https") == true)
        #expect(error(["PETTY_QLD_BASE_URL": "https://q.example/?countryId=21"])?.contains("must not have a query") == true)
        #expect(error(["PETTY_VIC_BASE_URL": "https:///nohost"])?.contains("no host") == true)
        #expect(error(["PETTY_SA_BASE_URL": "not a url"]) != nil)
    }

    @Test func intervalsArePositiveWholeSecondsAboveTheMinimum() throws {
        let settings = try parse(["PETTY_QLD_POLL_SECONDS": "120", "PETTY_NSW_POLL_SECONDS": "900"])
        #expect(settings.interval(.qld) == 120)
        #expect(settings.interval(.nsw) == 900)
        #expect(settings.interval(.wa) == 1800)
        #expect(error(["PETTY_QLD_POLL_SECONDS": "30"]) == "PETTY_QLD_POLL_SECONDS must be at least 60 seconds, got 30")
        #expect(error(["PETTY_SA_POLL_SECONDS": "-5"])?.contains("positive whole number") == true)
        #expect(error(["PETTY_WA_POLL_SECONDS": "1.5"])?.contains("positive whole number") == true)
    }

    @Test func theDescriptionNeverShowsASecret() throws {
        let env = Self.nswCredentials.merging(["PETTY_QLD_TOKEN": "qld-token-999", "PETTY_VIC_CONSUMER_ID": "vic-id-888"]) { $1 }
        let text = try parse(env).description
        for secret in ["key-123456", "secret-654321", "qld-token-999", "vic-id-888"] { #expect(!text.contains(secret)) }
        #expect(text.contains("nsw_api_key=set") && text.contains("sa_token=unset"))
    }

    @Test func theNSWPlanFitsTheMonthlyQuota() throws {
        #expect(NSWPoller.callsPerDay(interval: 1800) == 38)
        let settings = try parse(Self.nswCredentials)
        let quota = try #require(ProviderPollers.nswQuota(settings))
        #expect(quota.perDay == 38 + 18)
        #expect(quota.fits)
        let line = ProviderPollers.summary(settings, pollers: ProviderPollers.make(settings))
        #expect(line.hasPrefix("providers: nsw (full daily, deltas every 1800s 05:00–23:00 Sydney; ≈38 calls/day), tas ("), "\(line)")
        #expect(line.contains("wa (every 1800s"))
        #expect(line.hasSuffix("NSW key ≈56 calls/day, 1,680/month of 2,500"), "\(line)")
        let greedy = try parse(Self.nswCredentials.merging(["PETTY_NSW_POLL_SECONDS": "300"]) { $1 })
        #expect(ProviderPollers.nswQuota(greedy)?.fits == false)
        #expect(ProviderPollers.summary(ProviderSettings(), pollers: []).hasPrefix("providers: none"))
    }
}

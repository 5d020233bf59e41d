import Foundation
import Testing
@testable import API
@testable import App

/// Issue 48 §18: the universal-links file comes from `PETTY_APPLE_APP_ID` (404 unset), and CORS lets apps send
/// conditional and authorised requests and read `ETag` and `Retry-After`.
@Suite struct AppleAppLinkTests {
    @Test func theAssociationFileNamesTheConfiguredAppAndIsAbsentOtherwise() throws {
        var config = AppTestSupport.config()
        config.apple = try AppleAppLink(appID: "ABCDE12345.au.petty.app")
        let app = try buildApplication(config, logger: AppTestSupport.quietLogger(), dataset: FollowerHarness.good).app
        let response = try app.test(.GET, "/.well-known/apple-app-site-association")
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type") == "application/json")
        let json = try require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        let details = try require((json["applinks"] as? [String: Any])?["details"] as? [[String: Any]])
        #expect(details.first?["appIDs"] as? [String] == ["ABCDE12345.au.petty.app"])
        #expect(!response.bodyString.contains("TEAMID"))

        #expect(try AppTestSupport.sharedSampleApp().test(.GET, "/.well-known/apple-app-site-association").status == .notFound)
        #expect(throws: AppleAppLink.Invalid.self) { try AppleAppLink(appID: "TEAMID.au.petty.app") }
        #expect(throws: AppleAppLink.Invalid.self) { try AppleAppLink(appID: "ABCDE12345") }
        #expect(throws: CommandLineError.self) { try CommandLineParser.parse(["serve"], environment: ["PETTY_APPLE_APP_ID": "nope"]) }
    }

    @Test func corsAllowsConditionalAndAuthorisedRequestsAndExposesRetryAfter() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let preflight = try app.test(
            .OPTIONS, "/v1/stations", headers: ["Origin": "https://app.example", "Access-Control-Request-Method": "GET"])
        let allowed = try require(preflight.headers.first(name: "Access-Control-Allow-Headers"))
        for header in ["If-Modified-Since", "If-None-Match", "Authorization"] { #expect(allowed.contains(header)) }
        let plain = try app.test(.GET, "/v1/fuels", headers: ["Origin": "https://app.example"])
        let exposed = try require(plain.headers.first(name: "Access-Control-Expose-Headers"))
        #expect(exposed.contains("ETag") && exposed.contains("Retry-After"))
    }
}

import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct HealthEndpointTests {
    @Test func healthReportsSampleDataPerStateAndProvider() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let res = try app.test(.GET, "/health")
        #expect(res.status == .ok)
        #expect(res.headers.first(name: "Cache-Control") == "no-store")
        let json = try AppTestSupport.json(res)
        #expect(json["source"] as? String == "sample")
        #expect(json["status"] as? String == "ok")
        let providers = try require(json["providers"] as? [[String: Any]])
        #expect(Set(providers.compactMap { $0["provider"] as? String }) == ["nsw", "wa", "vic"])
        #expect(providers.allSatisfy { $0["status"] as? String == "sample" })
        let states = try require(json["states"] as? [[String: Any]])
        #expect(states.first { $0["state"] as? String == "ACT" }?["stations"] as? Int == 70)
    }

    @Test func healthIs503WithNoDataAtAll() throws {
        let app = try AppTestSupport.app(with: Dataset())
        let res = try app.test(.GET, "/health")
        #expect(res.status == .serviceUnavailable)
        #expect(try AppTestSupport.json(res)["status"] as? String == "unavailable")
    }
}

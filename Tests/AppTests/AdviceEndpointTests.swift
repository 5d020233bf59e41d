import Foundation
import Fuel
import HTTP
import Testing
@testable import App

@Suite struct AdviceEndpointTests {
    let app: Application

    init() throws { app = try AppTestSupport.sampleApp() }

    @Test func probe() throws {
        for path in ["/v1/advice?fuel=U91&city=melbourne", "/v1/advice?fuel=U91&city=perth", "/v1/advice?fuel=U91&city=sydney",
                     "/v1/advice?fuel=U91&near=-31.95,115.86", "/v1/advice?fuel=U91&near=-20,130",
                     "/v1/summary?state=WA&fuel=U91", "/v1/summary?state=VIC&fuel=U91&near=-37.8136,144.9631", "/v1/summary?state=NSW&fuel=U91"] {
            let res = try app.test(.GET, path)
            print("PROBE \(path) \(res.status) \(res.body.count) \(res.bodyString)")
        }
    }
}

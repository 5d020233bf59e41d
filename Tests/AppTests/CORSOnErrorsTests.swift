import Foundation
import HTTP
import Testing
@testable import API
@testable import App

/// A browser app on another origin reads error answers too: every status carries the CORS headers.
@Suite struct CORSOnErrorsTests {
    @Test(arguments: [
        ("/v1/stations/999999", 404),
        ("/no/such/path", 404),
        ("/v1/stations?limit=0", 400),
        ("/v1/stations/1", 200),
    ])
    func answersToAnotherOriginCarryCORSHeaders(path: String, status: Int) throws {
        let response = try AppTestSupport.sharedSampleApp().test(.GET, path, headers: ["Origin": "https://app.example", "Accept": "application/json"])
        #expect(Int(response.status.code) == status)
        #expect(response.headers.first(name: "Access-Control-Allow-Origin") == "*", "\(path)")
    }

    @Test func aWrongMethodCarriesCORSHeadersAndAllow() throws {
        let response = try AppTestSupport.sharedSampleApp().test(.DELETE, "/v1/stations/1", headers: ["Origin": "https://app.example"])
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers.first(name: "Access-Control-Allow-Origin") == "*")
        #expect(response.headers.first(name: "Allow") != nil)
    }
}

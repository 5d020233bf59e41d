import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `POST /v1/stations/along`: the same parameters as the GET, in a JSON body, so a route of 2,000 points (longer than
/// the 8 KiB request line) can be asked for; the body is checked as the query is.
@Suite struct AlongPostTests: OnSampleApp {
    static let json: HTTPHeaders = ["Content-Type": "application/json"]

    func post(_ body: String, headers: HTTPHeaders = Self.json, path: String = "/v1/stations/along") throws -> TestResponse {
        try app.test(.POST, path, headers: headers, body: Array(body.utf8))
    }

    func reason(_ response: TestResponse) throws -> String {
        try AppTestSupport.json(response)["reason"] as? String ?? ""
    }

    func expectBadRequest(_ response: TestResponse, startingWith prefix: String? = nil, containing part: String? = nil) throws {
        #expect(response.status == .badRequest)
        let reason = try reason(response)
        if let prefix { #expect(reason.hasPrefix(prefix), "\(reason)") }
        if let part { #expect(reason.contains(part), "\(reason)") }
    }

    /// 2,000 points zig-zagging 670 m across Parramatta Road (about 1,340 km in all, inside the 1,500 km cap): over
    /// 8,000 characters encoded.
    static let longRoute: [Coordinate] = (0..<2_000).map { i in
        let t = Double(i) / 1_999
        return Coordinate(latitude: -33.8150 - 0.054 * t + (i % 2 == 0 ? 0.003 : -0.003), longitude: 151.0011 + 0.208 * t)
    }

    @Test func aPostedRouteAnswersAsTheSameGet() throws {
        let polyline = Polyline.encode(AlongEndpointTests.route)
        let escaped = AlongEndpointTests.encoded(AlongEndpointTests.route)
        let get = try app.test(.GET, "/v1/stations/along?polyline=\(escaped)&fuel=U91&sort=price&detour_km=1.5&limit=20&open_now=false")
        let posted = try post(#"{"polyline": "\#(polyline)", "fuel": "U91", "sort": "price", "detour_km": 1.5, "limit": 20, "open_now": false}"#)
        #expect(get.status == .ok && posted.status == .ok, "\(posted.bodyString.prefix(200))")
        #expect(try AppTestSupport.json(posted)["data"] as? NSArray == (try AppTestSupport.json(get)["data"] as? NSArray))
    }

    @Test func aRouteOfTwoThousandPointsIsTooLongForAGetAndFineAsAPost() throws {
        let polyline = Polyline.encode(Self.longRoute)
        #expect(polyline.utf8.count > 8_000)
        let get = try app.test(.GET, "/v1/stations/along?polyline=\(AlongEndpointTests.encoded(Self.longRoute))")
        #expect(get.status == .uriTooLong)
        let posted = try post(#"{"polyline": "\#(polyline)", "detour_km": 1, "limit": 500}"#)
        #expect(posted.status == .ok, "\(posted.bodyString.prefix(200))")
        let data = try #require(try AppTestSupport.json(posted)["data"] as? [[String: Any]])
        #expect(data.count > 10)
        let along = data.compactMap { $0["along_km"] as? Double }
        #expect(along == along.sorted())
    }

    @Test func aBadBodyIsAClearError() throws {
        let polyline = Polyline.encode(AlongEndpointTests.route)
        let unknown = try post(#"{"polyline": "\#(polyline)", "fuel_type": "U91"}"#)
        #expect(unknown.status == .badRequest)
        #expect(try reason(unknown).hasPrefix("Unknown parameter 'fuel_type' (did you mean 'fuel'?)"))
        let nested = try post(#"{"polyline": "\#(polyline)", "fuel": {"code": "U91"}}"#)
        try expectBadRequest(nested, startingWith: "fuel must be")
        let null = try post(#"{"polyline": null}"#)
        try expectBadRequest(null, startingWith: "polyline must not be null")
        let missing = try post(#"{"fuel": "U91"}"#)
        try expectBadRequest(missing, startingWith: "polyline is required")
        let badValue = try post(#"{"polyline": "\#(polyline)", "limit": 0}"#)
        try expectBadRequest(badValue, startingWith: "limit must be a whole number from 1 to 500")
        for garbage in ["", "[]", "{", "\"polyline\"", "{\"polyline\": \"a\"} trailing"] {
            let response = try post(garbage)
            #expect(response.status == .badRequest, "\(garbage): \(response.status)")
        }
        let form = try post("polyline=\(polyline)", headers: ["Content-Type": "application/x-www-form-urlencoded"])
        #expect(form.status.code == 415)
        let withQuery = try post(#"{"polyline": "\#(polyline)"}"#, path: "/v1/stations/along?fuel=U91")
        try expectBadRequest(withQuery, containing: "JSON body")
        let huge = try post(#"{"polyline": "\#(String(repeating: "_", count: 70_000))"}"#)
        #expect(huge.status == .payloadTooLarge)
    }

    @Test func listsAcceptArraysOrCommaSeparatedText() throws {
        let polyline = Polyline.encode(AlongEndpointTests.route)
        let array = try post(#"{"polyline": "\#(polyline)", "fuel": ["U91"], "limit": 5}"#)
        let text = try post(#"{"polyline": "\#(polyline)", "fuel": "U91", "limit": 5}"#)
        #expect(array.status == .ok && array.bodyString == text.bodyString)
    }
}

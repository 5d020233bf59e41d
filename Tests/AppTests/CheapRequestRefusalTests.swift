import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// Issue 47's cheap requests, through the app in memory: a route folded on itself is a 422 that says how to
/// simplify it, a route on the antimeridian finds nothing in Sydney, and a request no route takes is answered
/// without its body (so `Expect: 100-continue` gets no 100).
@Suite struct CheapRequestRefusalTests: OnSampleApp {
    /// What a query may carry as is of a polyline's characters: `?` (every zero step) escaped would not fit 2,000 points.
    static let unescaped = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "?@_~"))

    static func along(_ points: [Coordinate], _ rest: String) -> String {
        "/v1/stations/along?polyline=" + Polyline.encode(points).addingPercentEncoding(withAllowedCharacters: Self.unescaped)! + rest
    }

    @Test func aRouteFoldedOnItselfIsA422SayingHowToSimplifyIt() throws {
        let still = Array(repeating: Coordinate(latitude: -33.87, longitude: 151.0), count: 2_000)
        let response = try app.test(.GET, Self.along(still, "&detour_km=20&limit=500"))
        #expect(response.status.code == 422)
        let reason = try #require(AppTestSupport.json(response)["reason"] as? String)
        #expect(reason.contains("Douglas-Peucker") && reason.contains("detour_km"), "\(reason)")
    }

    @Test func aZeroLengthRouteOnTheAntimeridianFindsNothing() throws {
        let points = [Coordinate(latitude: -33.87, longitude: 179.99999), Coordinate(latitude: -33.87, longitude: -179.99999)]
        let response = try app.test(.GET, Self.along(points, "&detour_km=20&limit=500"))
        #expect(response.status == .ok)
        let meta = try #require(AppTestSupport.json(response)["meta"] as? [String: Any])
        #expect(meta["total"] as? Int == 0)
    }

    @Test(arguments: [("PUT /health", true), ("POST /v1/stations", true), ("PUT /nowhere", true), ("GET /health", false)])
    func aRequestNoRouteTakesIsAnsweredWithoutItsBody(_ request: String, _ withoutBody: Bool) throws {
        let raw = "\(request) HTTP/1.1\r\nHost: a\r\nExpect: 100-continue\r\nContent-Length: 5\r\n\r\n"
        guard case .needMore(let head?) = HTTPRequestParser().parse(Array(raw.utf8)) else {
            Issue.record("no head for \(request)")
            return
        }
        #expect(try app.responder.answersWithoutBody(head) == withoutBody, "\(request)")
    }
}

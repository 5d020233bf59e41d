import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import HTTP
import Testing
@testable import App

/// Without `PETTY_DATABASE_URL`: over a real socket, every alert route is a 503 saying so, `/health` says alerts
/// are off, and a browser on another origin may still send the `Authorization` header and the new methods.
@Suite struct AlertsWithoutDatabaseTests {
    static let routes: [(String, String)] = [
        ("POST", "/v1/devices"), ("PUT", "/v1/devices/1"), ("DELETE", "/v1/devices/1"),
        ("GET", "/v1/devices/1/alerts"), ("POST", "/v1/devices/1/alerts"), ("GET", "/v1/devices/1/alerts/2"),
        ("PUT", "/v1/devices/1/alerts/2"), ("DELETE", "/v1/devices/1/alerts/2"), ("GET", "/v1/devices/1/notifications?after=0"),
    ]

    @Test func everyAlertRouteIs503OverARealSocketAndHealthSaysAlertsAreOff() async throws {
        let app = try AppTestSupport.sampleApp()
        let port = try app.startLive()
        defer { app.shutdown() }
        for (method, path) in Self.routes {
            var request = URLRequest(url: URL(string: "http://127.0.0.1:\(port)\(path)")!)
            request.httpMethod = method
            request.setValue("Bearer 00", forHTTPHeaderField: "Authorization")
            if method != "GET" && method != "DELETE" {
                request.setValue("application/json", forHTTPHeaderField: "Content-Type")
                request.httpBody = Data(#"{"platform": "ios"}"#.utf8)
            }
            let (body, response) = try await URLSession.shared.data(for: request)
            let http = try require(response as? HTTPURLResponse)
            #expect(http.statusCode == 503, "\(method) \(path)")
            #expect(http.value(forHTTPHeaderField: "Cache-Control") == "no-store")
            let json = try require(try JSONSerialization.jsonObject(with: body) as? [String: Any])
            #expect(json["error"] as? Bool == true)
            #expect(json["reason"] as? String == "price alerts need a database: set PETTY_DATABASE_URL", "\(method) \(path)")
        }
        let alerts = try require(try await LiveGet(port: port, "/health").json()["alerts"] as? [String: Any])
        #expect(alerts["status"] as? String == "off" && alerts["database"] as? String == "not configured")
        #expect(alerts["evaluator_role"] as? String == "off" && alerts["relay"] as? String == "not configured")
        #expect(alerts.keys.contains("backlog") && alerts["backlog"] is NSNull)
        let metrics = try await LiveGet(port: port, "/metrics").body
        #expect(!String(decoding: metrics, as: UTF8.self).contains("petty_alerts_"), "alerts off: no alert metrics")
    }

    @Test func aPreflightAllowsAuthorizationAndTheDeviceMethods() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let response = try app.test(.OPTIONS, "/v1/devices/1/alerts/2", headers: [
            "Origin": "https://app.example", "Access-Control-Request-Method": "PUT",
            "Access-Control-Request-Headers": "authorization, content-type",
        ])
        #expect(response.status == .noContent)
        let headers = response.headers.first(name: "Access-Control-Allow-Headers") ?? ""
        #expect(headers.contains("Authorization") && headers.contains("Content-Type"))
        let methods = response.headers.first(name: "Access-Control-Allow-Methods") ?? ""
        #expect(methods.contains("PUT") && methods.contains("DELETE"))
    }

    @Test func sslmodeRequireStopsStartupSayingWhatToDoInstead() throws {
        let error = try require(Result { try CommandLineParser.parse(["serve"], environment: ["PETTY_DATABASE_URL": "postgres://petty:hunter2@db:5432/petty?sslmode=require"]) }.failure)
        let text = "\(error)"
        #expect(text.contains("PETTY_DATABASE_URL") && text.contains("local socket") && text.contains("TLS tunnel") && text.contains("private network"))
        #expect(!text.contains("hunter2"))
        let flag = try require(Result { try CommandLineParser.parse(["serve", "--database-url", "postgres:///petty?host=/var/run/postgresql"], environment: [:]) }.success)
        #expect(flag.1.database?.database == "petty")
        #expect(Entrypoint.main(arguments: ["serve"], environment: ["PETTY_DATABASE_URL": "postgres://db/petty?sslmode=verify-full"]) == 2)
    }
}

extension Result {
    var failure: Failure? { if case .failure(let error) = self { error } else { nil } }
    var success: Success? { if case .success(let value) = self { value } else { nil } }
}

import Foundation
import HTTP
import Testing
@testable import API
@testable import App

/// The device and alert routes' rules that need no database: bodies, field combinations, station checks against
/// the sample snapshot, authorization and the per-device limit, over an in-memory backend. Every refused request
/// writes nothing. One app for the suite (building one renders the whole sample), so its tests run one at a time.
@Suite(.serialized) struct DeviceRoutesValidationTests {
    static let shared = Result {
        let backend = InMemoryAlertsBackend()
        let app = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), dataset: AppTestSupport.sampleDataset, alertsBackend: backend).app
        return (app, backend)
    }
    let backend: InMemoryAlertsBackend
    let app: Application

    init() throws {
        (app, backend) = try Self.shared.get()
    }

    static let json: HTTPHeaders = ["Content-Type": "application/json"]

    func send(
        _ method: HTTPMethod, _ path: String, _ body: String = "", secret: String? = nil, idempotencyKey: String? = nil
    ) throws -> (status: Int, json: [String: Any], response: TestResponse) {
        var headers = Self.json
        if let secret { headers.add(name: "Authorization", value: "Bearer \(secret)") }
        if let idempotencyKey { headers.add(name: "Idempotency-Key", value: idempotencyKey) }
        let response = try app.test(method, path, headers: headers, body: Array(body.utf8))
        let object = (try? JSONSerialization.jsonObject(with: Data(response.body))) as? [String: Any] ?? [:]
        return (Int(response.status.code), object, response)
    }

    func register() throws -> (id: Int, secret: String) {
        let created = try send(.POST, "/v1/devices", #"{"platform": "ios", "push_token": "abc123", "time_zone": "Australia/Perth"}"#)
        #expect(created.status == 201)
        return (try require(created.json["id"] as? Int), try require(created.json["secret"] as? String))
    }

    @Test func aDeviceRegistersAndGetsItsIdAndSecretOnce() throws {
        let created = try send(.POST, "/v1/devices", #"{"platform": "android", "push_token": "tok", "time_zone": "Australia/Sydney"}"#)
        #expect(created.status == 201)
        let id = try require(created.json["id"] as? Int)
        #expect((created.json["secret"] as? String)?.count == 64)
        #expect(created.response.headers.first(name: "Location") == "/v1/devices/\(id)")
        #expect(created.response.headers.first(name: "Cache-Control") == "no-store")
    }

    @Test(arguments: [
        (#"{"platform": "windows", "push_token": "t", "time_zone": "Australia/Perth"}"#, "platform"),
        (#"{"push_token": "t", "time_zone": "Australia/Perth"}"#, "platform"),
        (#"{"platform": "ios", "time_zone": "Australia/Perth"}"#, "push_token"),
        (#"{"platform": "ios", "push_token": "t", "time_zone": "Mars/Olympus"}"#, "time_zone"),
        (#"{"platform": "ios", "push_token": "t", "time_zone": "AWST"}"#, "time_zone"),
        (#"{"platform": "ios", "push_token": "t", "time_zone": "Australia/Perth", "pushtoken": "x"}"#, "did you mean 'push_token'"),
        (#"{"platform": "ios", "push_token": null, "time_zone": "Australia/Perth"}"#, "push_token"),
        (#"["ios"]"#, "JSON object"),
        (#"{"platform": "ios", "push_token": 12345678, "time_zone": "Australia/Perth"}"#, "push_token must be a string"),
        (#"{"platform": "ios", "push_token": ["a", "b"], "time_zone": "Australia/Perth"}"#, "push_token must be a string"),
        (#"{"platform": true, "push_token": "t", "time_zone": "Australia/Perth"}"#, "platform must be a string"),
    ])
    func aBadRegistrationIsA400NamingTheFieldAndWritesNothing(body: String, named: String) throws {
        let writes = backend.writes
        let refused = try send(.POST, "/v1/devices", body)
        #expect(refused.status == 400, "\(refused.json)")
        #expect((refused.json["reason"] as? String ?? "").contains(named), "\(refused.json)")
        #expect(backend.writes == writes)
    }

    @Test func aBodyOver16KiBIs413AndWritesNothing() throws {
        let token = String(repeating: "a", count: 17 * 1024)
        let writes = backend.writes
        let refused = try send(.POST, "/v1/devices", #"{"platform": "ios", "push_token": "\#(token)", "time_zone": "Australia/Perth"}"#)
        #expect(refused.status == 413)
        #expect(backend.writes == writes)
    }

    @Test func aMissingWrongOrForeignSecretIsTheSame401() throws {
        let mine = try register()
        let theirs = try register()
        let writes = backend.writes
        let authentications = backend.authentications
        let answers = [
            try send(.GET, "/v1/devices/\(mine.id)/alerts"),
            try send(.GET, "/v1/devices/\(mine.id)/alerts", secret: String(repeating: "f", count: 64)),
            try send(.GET, "/v1/devices/\(mine.id)/alerts", secret: theirs.secret),
            try send(.GET, "/v1/devices/999999/alerts", secret: mine.secret),
            try send(.GET, "/v1/devices/abc/alerts", secret: mine.secret),
            try send(.DELETE, "/v1/devices/\(theirs.id)", secret: mine.secret),
        ]
        for answer in answers {
            #expect(answer.status == 401)
            #expect(answer.response.body == answers[0].response.body)
            #expect(answer.response.headers.first(name: "WWW-Authenticate") == "Bearer")
        }
        // Every one was checked against storage, the unknown ids too: the work is the same.
        #expect(backend.authentications - authentications == answers.count)
        #expect(backend.writes == writes)
        #expect(try send(.GET, "/v1/devices/\(mine.id)/alerts", secret: mine.secret).status == 200)
    }

    @Test func anAlertIsAnsweredWithEveryFieldAsSent() throws {
        let device = try register()
        let body = #"{"kind": "price_below", "fuel": "u91", "station_ids": [3300, 3301], "threshold": 179.9, "quiet_hours": {"from": "22:00", "to": "07:00"}}"#
        let created = try send(.POST, "/v1/devices/\(device.id)/alerts", body, secret: device.secret)
        #expect(created.status == 201, "\(created.json)")
        let text = String(decoding: created.response.body, as: UTF8.self)
        #expect(text.contains(#""threshold":179.9,"change":null,"delivery":"immediate","at":null,"quiet_hours":{"from":"22:00","to":"07:00"}"#), "\(text)")
        #expect(created.json["station_ids"] as? [Int] == [3300, 3301] && created.json["fuel"] as? String == "U91")
        #expect(created.json["created_at"] as? String == "2026-01-01T00:00:00Z")
        let id = try require(created.json["id"] as? Int)
        let read = try send(.GET, "/v1/devices/\(device.id)/alerts/\(id)", secret: device.secret)
        #expect(read.response.body == created.response.body)

        let daily = #"{"kind": "cheapest_changed", "fuel": "U91", "near": "-31.9523,115.8613", "radius_km": 5, "delivery": "daily", "at": "07:30"}"#
        let replaced = try send(.PUT, "/v1/devices/\(device.id)/alerts/\(id)", daily, secret: device.secret)
        #expect(replaced.status == 200)
        #expect(replaced.json["near"] as? String == "-31.9523,115.8613" && replaced.json["radius_km"] as? Double == 5)
        #expect(replaced.json["at"] as? String == "07:30" && replaced.json["station_ids"] is NSNull)
    }

    @Test(arguments: [
        (#"{"fuel": "U91", "station_ids": [3300], "threshold": 170}"#, "kind"),
        (#"{"kind": "price_sideways", "fuel": "U91", "station_ids": [3300]}"#, "kind"),
        (#"{"kind": "price_below", "fuel": "H2", "station_ids": [3300], "threshold": 170}"#, "fuel"),
        (#"{"kind": "price_below", "fuel": "U91", "station_ids": [3300]}"#, "threshold"),
        (#"{"kind": "price_below", "fuel": "U91", "station_ids": [3300], "threshold": 170, "change": 2}"#, "change"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 0.5}"#, "change"),
        (#"{"kind": "price_rise", "fuel": "U91", "station_ids": [3300]}"#, "change"),
        (#"{"kind": "price_drop", "fuel": "U91", "change": 2}"#, "station_ids"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "near": "-31.9,115.8", "radius_km": 5, "change": 2}"#, "not both"),
        (#"{"kind": "price_drop", "fuel": "U91", "near": "-31.9,115.8", "change": 2}"#, "radius_km"),
        (#"{"kind": "price_drop", "fuel": "U91", "near": "-31.9,115.8", "radius_km": 26, "change": 2}"#, "radius_km"),
        (#"{"kind": "price_drop", "fuel": "U91", "near": "-95,115.8", "radius_km": 5, "change": 2}"#, "near"),
        (#"{"kind": "cheapest_changed", "fuel": "U91", "station_ids": [3300]}"#, "near"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21], "change": 2}"#, "station_ids"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [], "change": 2}"#, "station_ids"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300, 99999999], "change": 2}"#, "99999999"),
        (#"{"kind": "wa_tomorrow", "fuel": "U91", "station_ids": [2593]}"#, "WA stations only"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "delivery": "weekly"}"#, "delivery"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "delivery": "daily"}"#, "at"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "delivery": "daily", "at": "7:30"}"#, "at"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "at": "07:30"}"#, "at"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "quiet_hours": {"from": "22:00"}}"#, "quiet_hours"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "quiet_hours": {"from": "22:00", "to": "25:00"}}"#, "quiet_hours.to"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "quiet_hours": "22:00-07:00"}"#, "quiet_hours"),
        (#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2, "quiet_hours": {"from": "22:00", "to": "07:00", "days": "mon"}}"#, "quiet_hours.days"),
        (#"{"kind": "price_below", "fuel": "U91", "station_ids": [3300], "thresold": 170}"#, "did you mean 'threshold'"),
        (#"{"kind": "price_below", "fuel": "U91", "station_ids": [3300], "threshold": "170"}"#, "threshold must be a number"),
        (#"{"kind": "price_below", "fuel": "U91", "station_ids": "3300", "threshold": 170}"#, "station_ids must be an array of numbers"),
        (#"{"kind": "price_below", "fuel": "U91", "station_ids": ["3300"], "threshold": 170}"#, "station_ids must be an array of numbers"),
        (#"{"kind": "price_below", "fuel": 91, "station_ids": [3300], "threshold": 170}"#, "fuel must be a string"),
    ])
    func aBadAlertIsA400NamingTheFieldAndWritesNothing(body: String, named: String) throws {
        let device = try register()
        let writes = backend.writes
        let refused = try send(.POST, "/v1/devices/\(device.id)/alerts", body, secret: device.secret)
        #expect(refused.status == 400, "\(body): \(refused.json)")
        #expect((refused.json["reason"] as? String ?? "").contains(named), "\(body): \(refused.json)")
        #expect(backend.writes == writes)
    }

    @Test func waTomorrowTakesWAStations() throws {
        let device = try register()
        let perth = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .WA }?.station.id)
        let created = try send(.POST, "/v1/devices/\(device.id)/alerts", #"{"kind": "wa_tomorrow", "fuel": "U91", "station_ids": [\#(perth.rawValue)]}"#, secret: device.secret)
        #expect(created.status == 201, "\(created.json)")
    }

    @Test func theFiftyFirstAlertIsA409AndWritesNothing() throws {
        let device = try register()
        let body = #"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2}"#
        for _ in 0..<50 { #expect(try send(.POST, "/v1/devices/\(device.id)/alerts", body, secret: device.secret).status == 201) }
        let writes = backend.writes
        let refused = try send(.POST, "/v1/devices/\(device.id)/alerts", body, secret: device.secret)
        #expect(refused.status == 409)
        #expect((refused.json["reason"] as? String ?? "").contains("50 alerts"))
        #expect(backend.writes == writes)
        let list = try send(.GET, "/v1/devices/\(device.id)/alerts", secret: device.secret)
        #expect((list.json["data"] as? [Any])?.count == 50 && list.json["limit"] as? Int == 50)
    }

    /// The header's forms: bare or a quoted structured-field string name the same key; anything else is a 400 that
    /// writes nothing. (What a key does against a real database: `AlertsLiveRoutesTests`.)
    @Test func anIdempotencyKeyIsBareOrQuotedAndAMalformedOneIsA400() throws {
        let device = try register()
        let path = "/v1/devices/\(device.id)/alerts"
        let body = #"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2}"#
        let writes = backend.writes
        for bad in ["", "two words", String(repeating: "k", count: 256), "caf\u{e9}", #""""#, #"a"b"#] {
            let refused = try send(.POST, path, body, secret: device.secret, idempotencyKey: bad)
            #expect(refused.status == 400 && (refused.json["reason"] as? String ?? "").contains("Idempotency-Key"), "\(bad): \(refused.json)")
        }
        #expect(backend.writes == writes)
        let bare = try send(.POST, path, body, secret: device.secret, idempotencyKey: "k-1")
        let quoted = try send(.POST, path, body, secret: device.secret, idempotencyKey: #""k-1""#)
        #expect(bare.status == 201 && quoted.status == 201 && quoted.json["id"] as? Int == bare.json["id"] as? Int)
        #expect(bare.response.headers.first(name: "Idempotent-Replayed") == nil && quoted.response.headers.first(name: "Idempotent-Replayed") == "true")
        #expect(backend.writes == writes + 1)
    }

    @Test func aBrowserMayRetryACreateWithItsKeyAndReadTheAnswer() throws {
        let preflight = try app.test(.OPTIONS, "/v1/devices/1/alerts", headers: [
            "Origin": "https://app.example", "Access-Control-Request-Method": "POST", "Access-Control-Request-Headers": "idempotency-key"])
        #expect(preflight.headers.first(name: "Access-Control-Allow-Headers")?.contains("Idempotency-Key") == true)
        let device = try register()
        let answer = try app.test(.POST, "/v1/devices/\(device.id)/alerts", headers: [
            "Origin": "https://app.example", "Content-Type": "application/json", "Authorization": "Bearer \(device.secret)"],
            body: Array(#"{"kind": "price_drop", "fuel": "U91", "station_ids": [3300], "change": 2}"#.utf8))
        let exposed = answer.headers.first(name: "Access-Control-Expose-Headers") ?? ""
        #expect(answer.status.code == 201 && exposed.contains("Location") && exposed.contains("Idempotent-Replayed"), "\(exposed)")
    }

    @Test func aQueryOnAListIsRefusedLikeAnyUnknownParameter() throws {
        let device = try register()
        let refused = try send(.GET, "/v1/devices/\(device.id)/alerts?limit=5", secret: device.secret)
        #expect(refused.status == 400)
        #expect((refused.json["reason"] as? String ?? "").contains("Unknown parameter 'limit'"))
        let inbox = try send(.GET, "/v1/devices/\(device.id)/notifications?after=-1", secret: device.secret)
        #expect(inbox.status == 400 && (inbox.json["reason"] as? String ?? "").contains("after"))
    }
}

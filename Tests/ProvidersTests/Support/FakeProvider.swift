import Foundation
import Fuel
import HTTP
import Synchronization
import TestSupport
@testable import Providers

/// A fake of every provider API on loopback, built on our own HTTP module and serving the recorded fixtures.
/// Each path can be switched to misbehave; requests are counted and their headers kept for assertions.
final class FakeProvider: @unchecked Sendable {
    enum Behaviour: Sendable, Equatable {
        case normal
        case status(Int, retryAfter: String? = nil)
        /// Sleep this long on the loop thread, then answer normally (past the client's deadline).
        case hang(seconds: Double)
        case garbage
        /// A valid envelope with no rows.
        case empty
        /// Half the stations (NSW) or sites (QLD/SA), to trip the merge's half-size rule.
        case halfSize
        case huge(bytes: Int)
        /// A 500 whose body echoes the request's headers, as a careless error page might.
        case echoHeaders
        /// Misbehave for the next `count` requests, then behave normally.
        indirect case times(Int, Behaviour)
    }

    struct Recorded: Sendable {
        var path: String
        var query: String
        var headers: [(String, String)]

        func header(_ name: String) -> String? {
            headers.last { $0.0.caseInsensitiveCompare(name) == .orderedSame }?.1
        }
    }

    private struct State {
        var behaviours: [String: Behaviour] = [:]
        var requests: [Recorded] = []
        /// The token data calls must carry; `expireToken()` changes it so the old one gets 401.
        var validToken = "token-1"
        var tokensIssued = 0
        var tomorrowPublished = false
        /// Products (`Product=N`) whose tomorrow feed stays empty while the others are published.
        var tomorrowLate: Set<String> = []
        /// The WA trading day today's RSS is dated with.
        var waToday: CalendarDay
    }

    static let apiKey = "fake-key-ABCDEF123"
    static let apiSecret = "fake-secret-XYZ987654"
    static let subscriberToken = "0f0f0f0f-1111-2222-3333-444455556666"
    static let consumerID = "vic-consumer-777888999"

    let app: Application
    private(set) var port = 0
    private let state: Mutex<State>
    let nswBody: Data
    let tasBody: Data
    let waToday: Data
    let qldSites: Data
    let qldBrands: Data
    let qldPrices: Data
    let vicPrices: Data
    let vicBrands: Data

    /// `nswFixture`: the full recorded payload (3,289 stations) or the 15-station subset (default, fast).
    init(nswFixture: String = "nsw_v1_fuel_prices.subset.json", waToday: CalendarDay = WATradingDay.tradingDay(containing: Date())) throws {
        state = Mutex(State(waToday: waToday))
        nswBody = try Fixture.data(nswFixture)
        tasBody = try Self.asTAS(try Fixture.data("nsw_v1_fuel_prices.subset.json"))
        self.waToday = try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml")
        qldSites = try Fixture.data("qld_GetFullSiteDetails.json")
        qldBrands = try Fixture.data("qld_GetCountryBrands.json")
        qldPrices = try Self.prices(forSites: qldSites)
        vicPrices = try Fixture.data("vic_fuel_prices.subset.json")
        vicBrands = try Fixture.data("vic_reference-data_brands.json")
        app = Application(environment: .testing, logger: Logger(label: "fake", level: .critical, sink: .inMemory()))
        app.server.threads = 4
        routes()
    }

    func start() throws -> FakeProvider {
        port = try app.startLive()
        return self
    }

    func stop() { app.shutdown() }

    var baseURL: URL { URL(string: "http://127.0.0.1:\(port)")! }

    // MARK: Switches and counters

    func set(_ path: String, _ behaviour: Behaviour) { state.withLock { $0.behaviours[path] = behaviour } }
    func expireToken() { state.withLock { $0.validToken = "token-expired-\($0.tokensIssued)" } }
    func publishTomorrow(_ published: Bool = true, except late: Set<String> = []) {
        state.withLock {
            $0.tomorrowPublished = published
            $0.tomorrowLate = late
        }
    }
    var tokensIssued: Int { state.withLock { $0.tokensIssued } }
    var requests: [Recorded] { state.withLock { $0.requests } }
    func count(_ path: String) -> Int { requests.filter { $0.path == path }.count }
    func last(_ path: String) -> Recorded? { requests.last { $0.path == path } }

    // MARK: Routes

    private func routes() {
        let tokenPath = NSWOAuth.tokenPath
        app.on(.GET, path(tokenPath)) { [self] request in
            record(request)
            let expected = "Basic " + Data("\(Self.apiKey):\(Self.apiSecret)".utf8).base64EncodedString()
            guard request.headers.first(name: "Authorization") == expected,
                  request.query["grant_type"] == "client_credentials" else {
                return Response(status: .unauthorized, contentType: "application/json", body: Array(#"{"ErrorCode":"invalid_client"}"#.utf8))
            }
            let token = state.withLock { state -> String in
                state.tokensIssued += 1
                if state.validToken.hasPrefix("token-expired") { state.validToken = "token-\(state.tokensIssued + 1)" }
                return state.validToken
            }
            // `expires_in` is a string, as in the real Apigee response.
            return json(#"{"access_token":"\#(token)","expires_in":"43199","token_type":"BearerToken","status":"approved"}"#)
        }
        nsw(NSWPoller.fullPath) { [self] behaviour in
            switch behaviour {
            case .empty: return json(#"{"stations":[],"prices":[]}"#)
            case .halfSize: return Response(contentType: "application/json", body: Array(Self.halved(nswBody)))
            default: return Response(contentType: "application/json", body: Array(nswBody))
            }
        }
        nsw(NSWPoller.deltaPath) { [self] _ in
            // One price changed since the full list: the subset's first station, diesel.
            json(#"{"stations":[],"prices":[{"stationcode":"972","fueltype":"DL","price":199.9,"lastupdated":"\#(Self.nswNow())"}]}"#)
        }
        nsw(TASPoller.path) { [self] behaviour in
            behaviour == .empty ? json(#"{"stations":[],"prices":[]}"#) : Response(contentType: "application/json", body: Array(tasBody))
        }
        data(WAPoller.path, validate: { _ in nil }) { [self] request, behaviour in
            let (published, today) = state.withLock { ($0.tomorrowPublished && !$0.tomorrowLate.contains(request.query["Product"] ?? ""), $0.waToday) }
            if request.query["Day"] == "tomorrow" {
                return rss(published ? Self.bumped(Self.redated(waToday, to: today.advanced(by: 1)), by: 2) : Self.emptyRSS)
            }
            return rss(behaviour == .empty ? Self.emptyRSS : Self.redated(waToday, to: today))
        }
        for path in [InformedSourcesPoller.sitesPath, InformedSourcesPoller.brandsPath, InformedSourcesPoller.pricesPath, InformedSourcesPoller.regionsPath] {
            data(path, validate: { request in
                request.headers.first(name: "Authorization") == "FPDAPI SubscriberToken=\(Self.subscriberToken)" ? nil : .unauthorized
            }) { [self] _, behaviour in
                switch path {
                case InformedSourcesPoller.sitesPath:
                    if behaviour == .halfSize { return Response(contentType: "application/json", body: Array(Self.halvedSites(qldSites))) }
                    return Response(contentType: "application/json", body: Array(qldSites))
                case InformedSourcesPoller.brandsPath: return Response(contentType: "application/json", body: Array(qldBrands))
                case InformedSourcesPoller.pricesPath:
                    return behaviour == .empty ? json(#"{"SitePrices":[]}"#) : Response(contentType: "application/json", body: Array(qldPrices))
                default: return Response(status: .notFound, text: "not recorded")
                }
            }
        }
        for path in [VICPoller.pricesPath, VICPoller.brandsPath] {
            data(path, validate: { request in
                let transaction = request.headers.first(name: "x-transactionid") ?? ""
                return request.headers.first(name: "x-consumer-id") == Self.consumerID && UUID(uuidString: transaction) != nil ? nil : .unauthorized
            }) { [self] _, behaviour in
                if path == VICPoller.brandsPath { return Response(contentType: "application/json", body: Array(vicBrands)) }
                return behaviour == .empty ? json(#"{"fuelPriceDetails":[]}"#) : Response(contentType: "application/json", body: Array(vicPrices))
            }
        }
    }

    /// An NSW data route: checks the documented headers and the current token.
    private func nsw(_ route: String, body: @escaping @Sendable (Behaviour) -> Response) {
        data(route, validate: { [self] request in
            let token = state.withLock { $0.validToken }
            guard request.headers.first(name: "Authorization") == "Bearer \(token)" else { return .unauthorized }
            guard request.headers.first(name: "apikey") == Self.apiKey,
                  UUID(uuidString: request.headers.first(name: "transactionid") ?? "") != nil,
                  Self.isRequestTimestamp(request.headers.first(name: "requesttimestamp") ?? ""),
                  request.headers.first(name: "Content-Type") == "application/json; charset=utf-8"
            else { return .badRequest }
            return nil
        }) { _, behaviour in body(behaviour) }
    }

    /// A route that applies the path's behaviour switch before answering.
    private func data(
        _ route: String, validate: @escaping @Sendable (Request) -> HTTPStatus?,
        answer: @escaping @Sendable (Request, Behaviour) -> Response
    ) {
        app.on(.GET, path(route)) { [self] request in
            record(request)
            let behaviour = state.withLock { state -> Behaviour in
                let current = state.behaviours[route] ?? .normal
                if case .times(let count, let inner) = current {
                    state.behaviours[route] = count > 1 ? .times(count - 1, inner) : .normal
                    return inner
                }
                return current
            }
            switch behaviour {
            case .status(let code, let retryAfter):
                var response = Response(status: HTTPStatus(code: code), text: "provider says no (\(code))")
                if let retryAfter { response.headers.add(name: "Retry-After", value: retryAfter) }
                return response
            case .hang(let seconds):
                usleep(UInt32(seconds * 1_000_000))
            case .garbage:
                return Response(contentType: "application/json", body: Array("<html><body>Service Unavailable".utf8) + [0xFF, 0xFE, 0x00])
            case .echoHeaders:
                let credentialHeaders = ["authorization", "apikey", "x-consumer-id"]
                let echoed = request.headers.filter { credentialHeaders.contains($0.name.lowercased()) }
                    .map { "\($0.name): \($0.value)" }.joined(separator: "\n")
                return Response(status: .internalServerError, text: "error for request with\n\(echoed)")
            case .huge(let bytes):
                return Response(contentType: "application/json", body: [UInt8](repeating: 0x20, count: bytes))
            default: break
            }
            if let status = validate(request) { return Response(status: status, text: "rejected: \(status.code)") }
            return answer(request, behaviour)
        }
    }

    private func record(_ request: Request) {
        let recorded = Recorded(path: request.path, query: request.head.rawQuery ?? "", headers: request.headers.map { ($0.name, $0.value) })
        state.withLock { $0.requests.append(recorded) }
    }

    private func path(_ text: String) -> [PathComponent] {
        text.split(separator: "/").map { PathComponent(stringLiteral: String($0)) }
    }

    private func json(_ text: String) -> Response { Response(contentType: "application/json", body: Array(text.utf8)) }
    private func rss(_ data: Data) -> Response { Response(contentType: "text/xml; charset=utf-8", body: Array(data)) }

    // MARK: Payload builders

    static let emptyRSS = Data("\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<rss version=\"2.0\"><channel><title>FuelWatch Prices</title><description>tomorrow</description></channel></rss>\r\n".utf8)

    /// The today fixture with every `<date>` set to `day`.
    static func redated(_ rss: Data, to day: CalendarDay) -> Data {
        let text = String(decoding: rss, as: UTF8.self)
        let replaced = text.replacingOccurrences(of: #"<date>[0-9-]+</date>"#, with: "<date>\(day)</date>", options: .regularExpression)
        return Data(replaced.utf8)
    }

    /// Every `<price>` raised by `cents` (tomorrow differs from today, so a rollover is visible).
    static func bumped(_ rss: Data, by cents: Double) -> Data {
        Data(TaggedNumbers.rewriting(String(decoding: rss, as: UTF8.self), tag: "price") { String(format: "%.1f", $0 + cents) }.utf8)
    }

    /// The NSW subset as v2 TAS rows: `state: "TAS"` on stations and prices, integer station codes.
    static func asTAS(_ nsw: Data) throws -> Data {
        var object = try JSONSerialization.jsonObject(with: nsw) as! [String: Any]
        object["stations"] = (object["stations"] as! [[String: Any]]).map { station in
            var station = station
            station["state"] = "TAS"
            station["code"] = Int(station["code"] as! String)
            station["address"] = "1 Main Road, HOBART TAS 7000"
            return station
        }
        object["prices"] = (object["prices"] as! [[String: Any]]).map { price in
            var price = price
            price["state"] = "TAS"
            price["stationcode"] = Int(price["stationcode"] as! String)
            return price
        }
        return try JSONSerialization.data(withJSONObject: object)
    }

    /// Half the stations of an NSW payload, with their prices.
    static func halved(_ nsw: Data) -> Data {
        var object = try! JSONSerialization.jsonObject(with: nsw) as! [String: Any]
        let stations = object["stations"] as! [[String: Any]]
        let kept = Array(stations.prefix(stations.count / 2 - 1))
        let codes = Set(kept.map { "\($0["code"]!)" })
        object["stations"] = kept
        object["prices"] = (object["prices"] as! [[String: Any]]).filter { codes.contains("\($0["stationcode"]!)") }
        return try! JSONSerialization.data(withJSONObject: object)
    }

    static func halvedSites(_ sites: Data) -> Data {
        var object = try! JSONSerialization.jsonObject(with: sites) as! [String: Any]
        let all = object["S"] as! [Any]
        object["S"] = Array(all.prefix(all.count / 2 - 1))
        return try! JSONSerialization.data(withJSONObject: object)
    }

    /// A `GetSitesPrices` body for every site: unleaded and diesel in tenths of a cent.
    static func prices(forSites sites: Data) throws -> Data {
        let object = try JSONSerialization.jsonObject(with: sites) as! [String: Any]
        var rows: [String] = []
        for site in object["S"] as! [[String: Any]] {
            let id = site["S"] as! Int
            rows.append(#"{"SiteId":\#(id),"FuelId":2,"CollectionMethod":"T","TransactionDateUtc":"2026-11-20T22:55:00.13","Price":\#(1800 + id % 100).0}"#)
            rows.append(#"{"SiteId":\#(id),"FuelId":3,"CollectionMethod":"T","TransactionDateUtc":"2026-11-20T21:00:00","Price":\#(1900 + id % 50).0}"#)
        }
        return Data(#"{"SitePrices":[\#(rows.joined(separator: ","))]}"#.utf8)
    }

    /// `dd/MM/yyyy HH:mm:ss` UTC, a minute ago.
    static func nswNow() -> String {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "UTC")
        formatter.dateFormat = "dd/MM/yyyy HH:mm:ss"
        return formatter.string(from: Date().addingTimeInterval(-60))
    }

    /// `15/01/2026 02:32:51 AM`
    static func isRequestTimestamp(_ text: String) -> Bool {
        text.range(of: #"^\d{2}/\d{2}/\d{4} (0[1-9]|1[0-2]):[0-5]\d:[0-5]\d (AM|PM)$"#, options: .regularExpression) != nil
    }
}

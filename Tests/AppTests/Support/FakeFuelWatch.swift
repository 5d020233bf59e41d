import Foundation
import Fuel
import HTTP
import Synchronization
import TestSupport

/// FuelWatch's RSS on loopback, replaying the recorded metro ULP feed (`Tests/ProvidersTests/Fixtures/`) with
/// dates the test chooses: today's feed dated `today`, tomorrow's empty until `tomorrow` is set, then dated that
/// day with every price 2.0 c higher (so a rollover shows). `/api/sites?fuelType=ULP` serves the recorded site
/// list (`wa_api_sites_fuelType_ULP.json`), or a 503 while `failSites` is set.
final class FakeFuelWatch: Sendable {
    private struct State {
        var today: CalendarDay
        var tomorrow: CalendarDay?
        var tomorrowRequests = 0
        /// Copies of every station at shifted coordinates added to today's feed (a broken or hostile feed).
        var ghostCopies = 0
        var sitesRequests: [String] = []
        var failSites = false
    }

    static let emptyFeed = rss([])

    /// One station's `<item>`, for a feed a test writes from its own sites.
    struct Item {
        var name: String, brand: String, address: String, suburb: String
        var day: CalendarDay
        var price: Double
        var latitude: Double, longitude: Double
    }

    /// FuelWatch's RSS carrying `items`, text escaped as FuelWatch does.
    static func rss(_ items: [Item]) -> String {
        func escaped(_ text: String) -> String { text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;") }
        var xml = #"<?xml version="1.0" encoding="UTF-8"?><rss version="2.0"><channel><title>FuelWatch</title>"#
        for item in items {
            xml += "<item><title>x</title><brand>\(escaped(item.brand))</brand><date>\(item.day)</date>"
            xml += "<price>\(String(format: "%.1f", item.price))</price><trading-name>\(escaped(item.name))</trading-name>"
            xml += "<location>\(escaped(item.suburb))</location><address>\(escaped(item.address))</address>"
            xml += "<latitude>\(String(format: "%.7f", item.latitude))</latitude>"
            xml += "<longitude>\(String(format: "%.7f", item.longitude))</longitude></item>"
        }
        return xml + "</channel></rss>"
    }

    let app: Application
    private let state: Mutex<State>
    private let recorded: String
    private let recordedSites: Data

    init(today: CalendarDay) throws {
        let fixtures = URL(fileURLWithPath: AppTestSupport.publicDirectory).deletingLastPathComponent()
            .appendingPathComponent("Tests/ProvidersTests/Fixtures")
        recorded = String(decoding: try Data(contentsOf: fixtures.appendingPathComponent("wa_fuelWatchRSS_today_metro_ULP.xml")), as: UTF8.self)
        recordedSites = try Data(contentsOf: fixtures.appendingPathComponent("wa_api_sites_fuelType_ULP.json"))
        state = Mutex(State(today: today))
        app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
        app.server.threads = 2
        app.get("fuelwatch", "fuelWatchRSS") { [self] request -> Response in
            let body = request.query["Day"] == "tomorrow" ? tomorrowFeed() : todayFeed()
            return Response(contentType: "text/xml; charset=utf-8", body: Array(body.utf8))
        }
        app.get("api", "sites") { [self] request -> Response in
            let failing = state.withLock { state -> Bool in
                state.sitesRequests.append("fuelType=\(request.query["fuelType"] ?? "")")
                return state.failSites
            }
            if failing { return Response(status: .serviceUnavailable, contentType: "text/plain", body: Array("down".utf8)) }
            return Response(contentType: "application/json", body: Array(recordedSites))
        }
    }

    func start() throws -> URL { URL(string: "http://127.0.0.1:\(try app.startLive())")! }
    func stop() { app.shutdown() }

    /// The day today's feed is dated (FuelWatch's cache may lag a trading day behind).
    func serveToday(dated day: CalendarDay) { state.withLock { $0.today = day } }
    /// Publishes tomorrow's prices dated `day` (nil: an empty feed, "not yet").
    func publishTomorrow(dated day: CalendarDay?) { state.withLock { $0.tomorrow = day } }
    var tomorrowRequests: Int { state.withLock { $0.tomorrowRequests } }
    /// The query of every `/api/sites` request, in order.
    var sitesRequests: [String] { state.withLock { $0.sitesRequests } }
    /// While true, `/api/sites` answers 503.
    func failSites(_ failing: Bool) { state.withLock { $0.failSites = failing } }
    /// Adds `copies` ghost copies of every station to today's feed (0: the recorded feed again).
    func serveGhosts(copies: Int) { state.withLock { $0.ghostCopies = copies } }

    /// Once the day tomorrow's prices were published for comes, today's feed carries those prices.
    private func todayFeed() -> String {
        let (today, tomorrow, ghosts) = state.withLock { ($0.today, $0.tomorrow, $0.ghostCopies) }
        let feed = Self.redated(recorded, to: today)
        return Self.withGhosts(today == tomorrow ? Self.raised(feed, by: 2.0) : feed, copies: ghosts)
    }

    /// Every `<item>` repeated `copies` times, each copy moved 0.01° north per copy and renamed.
    static func withGhosts(_ rss: String, copies: Int) -> String {
        guard copies > 0, let start = rss.range(of: "<item>"), let end = rss.range(of: "</item>", options: .backwards) else { return rss }
        let items = String(rss[start.lowerBound..<end.upperBound])
        var extra = ""
        for copy in 1...copies {
            let moved = TaggedNumbers.rewriting(items, tag: "latitude") { "\($0 + 0.01 * Double(copy))" }
            extra += moved.replacingOccurrences(of: "<trading-name>", with: "<trading-name>Ghost \(copy) ")
        }
        return rss.replacingCharacters(in: end.upperBound..<end.upperBound, with: extra)
    }

    private func tomorrowFeed() -> String {
        let day = state.withLock { state -> CalendarDay? in
            state.tomorrowRequests += 1
            return state.tomorrow
        }
        guard let day else { return Self.emptyFeed }
        return Self.raised(Self.redated(recorded, to: day), by: 2.0)
    }

    static func redated(_ rss: String, to day: CalendarDay) -> String {
        rss.replacingOccurrences(of: #"<date>[0-9-]+</date>"#, with: "<date>\(day)</date>", options: .regularExpression)
    }

    static func raised(_ rss: String, by cents: Double) -> String {
        TaggedNumbers.rewriting(rss, tag: "price") { String(format: "%.1f", $0 + cents) }
    }
}

/// A clock the test moves by hand.
final class ManualClock: Sendable {
    private let instant: Mutex<Date>
    init(_ start: Date) { instant = Mutex(start) }
    var now: Date { instant.withLock { $0 } }
    func set(_ date: Date) { instant.withLock { $0 = date } }
}

/// Log lines a poller wrote, in order.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

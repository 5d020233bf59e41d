import Foundation
import Fuel
import HTTP
import Synchronization
import Testing
@testable import App
@testable import Providers

/// WA sites keep tomorrow's prices across the switch from sample to live, in the default deployment (WA live,
/// NSW/VIC on samples): the sample is loaded, then a live FuelWatch
/// feed of 40 sites, 7 of them sample sites whose ids are kept (3290, 3292, 3295, 3297, 3299, 3302, 3308), publishes
/// tomorrow's prices; the server restarts from its data directory; 06:00 promotes them. Every site, kept id or
/// new, has tomorrow's price, is on the board, is promoted and counts in the average.
@Suite(.serialized, .timeLimit(.minutes(2)))
struct WATomorrowIdentityTests {
    static let day = CalendarDay("2026-11-24")!
    static let next = day.advanced(by: 1)
    static let keptIDs = [3290, 3292, 3295, 3297, 3299, 3302, 3308]

    static func perth(_ day: CalendarDay, _ hour: Int, _ minute: Int = 0, _ second: Double = 0) -> Date {
        day.instant(hour: hour, minute: minute, in: WATradingDay.zone).addingTimeInterval(second)
    }

    struct Site {
        var name: String, brand: String, address: String, suburb: String
        var latitude: Double, longitude: Double
        var today: Double, tomorrow: Double
    }

    /// FuelWatch's RSS for `sites`: today's feed dated `today`, tomorrow's dated `next` once published.
    final class Feed: Sendable {
        let app: Application
        let sites: [Site]
        private let published = Mutex(false)

        init(sites: [Site]) {
            self.sites = sites
            app = Application(environment: .testing, logger: AppTestSupport.quietLogger())
            app.server.threads = 1
            app.get("fuelwatch", "fuelWatchRSS") { [self] request -> Response in
                let tomorrow = request.query["Day"] == "tomorrow"
                let body = tomorrow && !published.withLock({ $0 }) ? FakeFuelWatch.emptyFeed : feed(tomorrow: tomorrow)
                return Response(contentType: "text/xml; charset=utf-8", body: Array(body.utf8))
            }
        }

        func publish() { published.withLock { $0 = true } }

        func feed(tomorrow: Bool) -> String {
            FakeFuelWatch.rss(sites.map { site in
                FakeFuelWatch.Item(
                    name: site.name, brand: site.brand, address: site.address, suburb: site.suburb,
                    day: tomorrow ? WATomorrowIdentityTests.next : WATomorrowIdentityTests.day, price: tomorrow ? site.tomorrow : site.today,
                    latitude: site.latitude, longitude: site.longitude)
            })
        }
    }

    static func poller(_ url: URL) -> WAPoller {
        WAPoller(
            client: ProviderClient(options: .init(retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.1, maxDelay: 0.5))), base: url,
            interval: 1800, timeout: 30, products: [.unleaded], spacing: 0)
    }

    static func json(_ app: Application, _ path: String) throws -> [String: Any] {
        let response = try app.test(.GET, path)
        #expect(response.status == .ok, "\(path): \(response.bodyString.prefix(300))")
        return try AppTestSupport.json(response)
    }

    static func u91(_ app: Application, _ id: Int) throws -> [String: Any] {
        let station = try require(try json(app, "/v1/stations/\(id)")["data"] as? [String: Any])
        return try require((station["prices"] as? [[String: Any]])?.first { $0["fuel"] as? String == "U91" }, "no U91 at \(id)")
    }

    @Test func keptSampleSitesGetTomorrowsPricesAcrossARestartAndThe0600Promotion() async throws {
        let sample = AppTestSupport.sampleWithAllOfWA
        var sites: [Site] = []
        for id in Self.keptIDs {
            let station = try require(sample.snapshot[StationID(id)]?.station, "sample station \(id)")
            #expect(station.state == .WA)
            let byford = id == 3295
            sites.append(Site(
                name: station.name, brand: station.brand, address: station.address, suburb: station.suburb,
                latitude: station.location.latitude, longitude: station.location.longitude,
                today: byford ? 126.7 : 130.0 + Double(sites.count), tomorrow: byford ? 124.7 : 128.0 + Double(sites.count)))
        }
        #expect(try require(sample.snapshot[StationID(3295)]).station.name.contains("Byford"))
        for index in 0..<33 {  // new sites, far from every sample site
            sites.append(Site(
                name: "New Site \(index)", brand: "Independent", address: "\(index) Test Rd", suburb: "TESTVILLE",
                latitude: -33.9 - 0.01 * Double(index), longitude: 122.2, today: 140.0 + Double(index) / 10,
                tomorrow: 139.0 + Double(index) / 10))
        }
        let feed = Feed(sites: sites)
        let feedURL = URL(string: "http://127.0.0.1:\(try feed.app.startLive())")!
        defer { feed.app.shutdown() }
        let directory = AppTestSupport.temporaryDirectory()

        // 15:00: today's feed and tomorrow's, published.
        let clock = ManualClock(Self.perth(Self.day, 15))
        let (app, store) = try buildApplication(
            AppTestSupport.config(dataDirectory: directory), logger: AppTestSupport.quietLogger(), clock: { [clock] in clock.now },
            dataset: sample)
        feed.publish()
        let lines = LogLines()
        let poller = Self.poller(feedURL)
        let group = PollerGroup(
            pollers: [poller], sink: FuelStoreSink(store: store), log: PollLog { [lines] _, line in lines.append(line) },
            clock: { [clock] in clock.now })
        var failures = 0
        _ = await group.step(poller, failures: &failures)
        #expect(lines.all.last?.contains("tomorrow (2026-11-25) published: 40 prices") == true, "\(lines.all)")  // was 33
        let wa = store.current.snapshot.entries.filter { $0.station.state == .WA }
        #expect(wa.count == 40)
        for id in Self.keptIDs { #expect(wa.contains { $0.id.rawValue == id }, "kept id \(id)") }

        let board = try require(try Self.json(app, "/v1/tomorrow?state=WA&fuel=U91")["data"] as? [String: Any])
        let rows = try require(board["stations"] as? [[String: Any]])
        #expect(rows.count == 40)
        #expect(rows.contains { $0["station_id"] as? Int == 3295 && $0["tomorrow"] as? Double == 124.7 && $0["today"] as? Double == 126.7 })
        #expect(try require(try Self.u91(app, 3295)["tomorrow"] as? [String: Any])["price"] as? Double == 124.7)

        // Restart from the data directory at 20:00: the kept sites still have tomorrow's price.
        try DataDirectory(path: directory, logger: AppTestSupport.quietLogger()).save(store.current.dataset)
        app.shutdown()
        clock.set(Self.perth(Self.day, 20))
        let (restarted, restartedStore) = try buildApplication(
            AppTestSupport.config(dataDirectory: directory), logger: AppTestSupport.quietLogger(), clock: { [clock] in clock.now })
        defer { restarted.shutdown() }
        for id in Self.keptIDs {
            #expect(try Self.u91(restarted, id)["tomorrow"] != nil, "station \(id) after the restart")
        }

        // 05:59: still today's 126.7, tomorrow's 124.7 beside it.
        clock.set(Self.perth(Self.next, 5, 59))
        #expect(try Self.u91(restarted, 3295)["price"] as? Double == 126.7)

        // 06:00:01: promoted (FuelWatch's cache still serves the 24th, refused as stale).
        let restartedPoller = Self.poller(feedURL)
        let restartedGroup = PollerGroup(
            pollers: [restartedPoller], sink: FuelStoreSink(store: restartedStore), log: PollLog { _, _ in }, clock: { [clock] in clock.now })
        clock.set(Self.perth(Self.next, 6, 0, 1))
        _ = await restartedGroup.step(restartedPoller, failures: &failures)
        let byford = try Self.u91(restarted, 3295)
        #expect(byford["price"] as? Double == 124.7)  // was 126.7, yesterday's
        #expect(byford["updated_at"] as? String == "2026-11-24T22:00:00Z")
        #expect(byford["tomorrow"] == nil)
        for id in Self.keptIDs { #expect(try Self.u91(restarted, id)["updated_at"] as? String == "2026-11-24T22:00:00Z", "\(id)") }

        let mean = sites.map(\.tomorrow).reduce(0, +) / Double(sites.count)
        let averages = try require(try Self.json(restarted, "/v1/averages?state=WA&fuel=U91")["data"] as? [[String: Any]])
        let state = try require(averages.first { $0["region"] == nil || $0["region"] is NSNull })
        #expect(abs((state["average"] as? Double ?? 0) - mean) < 0.01, "\(state) vs \(mean)")
        #expect(state["station_count"] as? Int == 40)
    }
}

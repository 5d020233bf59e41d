import Foundation
import Fuel
import HTTP
import Testing
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
@testable import API
@testable import App
@testable import Providers

/// The default deployment (`./run.sh` with no keys): WA live from FuelWatch, NSW/ACT and VIC on the bundled
/// samples. The real server on a loopback port, with an injected clock, walks one WA trading day from 14:00 to
/// 07:00 the next morning while the WA poller is stepped against a fake FuelWatch; at each step `/v1/tomorrow`,
/// `/v1/stations/:id`, the share page and `/health` must agree with Perth's clock, and NSW/VIC with theirs.
@Suite(.serialized, .timeLimit(.minutes(5)), .longScenario)
struct TradingDayWalkTests {
    static let day = CalendarDay("2026-11-24")!
    static func perth(_ day: CalendarDay, _ hour: Int, _ minute: Int = 0, _ second: Double = 0) -> Date {
        day.instant(hour: hour, minute: minute, in: WATradingDay.zone).addingTimeInterval(second)
    }

    /// A server, its store, a WA poller on the fake, and a client.
    struct Deployment {
        let clock: ManualClock
        let fake: FakeFuelWatch
        let app: Application
        let base: String
        let poller: WAPoller
        let group: PollerGroup
        let lines: LogLines

        init(startingAt start: Date) throws {
            clock = ManualClock(start)
            fake = try FakeFuelWatch(today: TradingDayWalkTests.day)
            let fakeURL = try fake.start()
            let (app, store) = try buildApplication(
                AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { [clock] in clock.now },
                dataset: AppTestSupport.sampleDataset)
            self.app = app
            base = "http://127.0.0.1:\(try app.startLive())"
            // Generous deadlines and a retry: a loaded machine must not read as a FuelWatch failure.
            let client = ProviderClient(options: .init(retry: RetryPolicy(maxAttempts: 3, baseDelay: 0.1, maxDelay: 0.5)))
            poller = WAPoller(client: client, base: fakeURL, interval: 1800, timeout: 30, spacing: 0)
            lines = LogLines()
            group = PollerGroup(
                pollers: [poller], sink: FuelStoreSink(store: store), log: PollLog { [lines] _, line in lines.append(line) },
                statuses: try require(app.pollerStatuses), clock: { [clock] in clock.now })
        }

        func stop() {
            app.shutdown()
            fake.stop()
        }

        /// Moves the clock to `instant` and runs one poll step there.
        func poll(at instant: Date) async {
            clock.set(instant)
            var failures = 0
            _ = await group.step(poller, failures: &failures)
        }

        func get(_ path: String, accept: String = "application/json") async throws -> (status: Int, body: String) {
            var request = URLRequest(url: URL(string: base + path)!, timeoutInterval: 10)
            request.setValue(accept, forHTTPHeaderField: "Accept")
            request.cachePolicy = .reloadIgnoringLocalCacheData
            let (data, response) = try await URLSession.shared.data(for: request)
            return ((response as? HTTPURLResponse)?.statusCode ?? 0, String(decoding: data, as: UTF8.self))
        }

        func json(_ path: String) async throws -> [String: Any] {
            let (status, body) = try await get(path)
            #expect(status == 200, "\(path): \(status) \(body.prefix(300))")
            return try require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: Any], "\(path) is not JSON")
        }

        func tomorrow() async throws -> [String: Any] {
            try require(try await json("/v1/tomorrow?state=WA&fuel=U91")["data"] as? [String: Any])
        }

        /// United Byford's U91 price object from `/v1/stations/:id`.
        func byfordU91(_ id: Int) async throws -> [String: Any] {
            let station = try require(try await json("/v1/stations/\(id)")["data"] as? [String: Any])
            let prices = try require(station["prices"] as? [[String: Any]])
            return try require(prices.first { $0["fuel"] as? String == "U91" })
        }

        func waHealth() async throws -> [String: Any] {
            let providers = try require(try await json("/health")["providers"] as? [[String: Any]])
            return try require(providers.first { $0["provider"] as? String == "wa" })
        }
    }

    static func states(_ meta: Any?) -> [String: String] {
        let list = (meta as? [String: Any])?["states"] as? [[String: Any]] ?? []
        return Dictionary(list.map { ($0["state"] as? String ?? "?", $0["source"] as? String ?? "?") }, uniquingKeysWith: { $1 })
    }

    @Test func oneWATradingDayFrom1400ToTheNext0700() async throws {
        let day = Self.day
        let next = day.advanced(by: 1)
        let deployment = try Deployment(startingAt: Self.perth(day, 14))
        defer { deployment.stop() }

        // 14:00: today's live feed replaces the WA sample; tomorrow's are due at 14:30 today, not months ago.
        await deployment.poll(at: Self.perth(day, 14))
        #expect(deployment.lines.all.last?.hasPrefix("poll wa ok") == true, "\(deployment.lines.all)")
        let list = try await deployment.json("/v1/stations?near=-32.2154,116.0080&radius_km=1&sort=distance&limit=1")
        let byford = try require((list["data"] as? [[String: Any]])?.first?["id"] as? Int)
        #expect(Self.states(list["meta"]) == ["NSW": "sample", "ACT": "sample", "VIC": "sample", "WA": "live"])
        let wa = try await deployment.json("/v1/stations?state=WA&limit=1")
        #expect(Self.states(wa["meta"]) == ["WA": "live"])
        #expect((wa["meta"] as? [String: Any])?["source"] as? String == "live")
        var board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == false)
        #expect(board["trading_day"] as? String == "2026-11-25")
        #expect(board["expected_at"] as? String == "2026-11-24T06:30:00Z")
        #expect(try await deployment.byfordU91(byford)["tomorrow"] == nil)
        #expect(try await deployment.byfordU91(byford)["price"] as? Double == 122.9)

        // 14:31: asked, not yet published: still unavailable, nothing merged.
        await deployment.poll(at: Self.perth(day, 14, 31))
        #expect(deployment.fake.tomorrowRequests == 7)
        board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == false)
        #expect(deployment.lines.all.last?.contains("tomorrow (2026-11-25) not yet published") == true, "\(deployment.lines.all)")

        // 15:00: published; the board, the station and the share page agree.
        deployment.fake.publishTomorrow(dated: next)
        await deployment.poll(at: Self.perth(day, 15))
        #expect(deployment.lines.all.last?.contains("tomorrow (2026-11-25) published") == true, "\(deployment.lines.all)")
        #expect(deployment.lines.all.last?.contains("first held 30m00s after 14:30") == true, "\(deployment.lines.all)")
        board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == true)
        #expect(board["trading_day"] as? String == "2026-11-25")
        #expect(board["published_at"] as? String == "2026-11-24T07:00:00Z")
        #expect(board["expected_at"] as? String == "2026-11-24T06:30:00Z")
        let verdicts = try require(board["stations"] as? [[String: Any]])
        #expect(verdicts.contains { $0["station_id"] as? Int == byford && $0["tomorrow"] as? Double == 124.9 })
        let tomorrowPrice = try require(try await deployment.byfordU91(byford)["tomorrow"] as? [String: Any])
        #expect(tomorrowPrice["price"] as? Double == 124.9 && tomorrowPrice["day"] as? String == "2026-11-25")
        var page = try await deployment.get("/stations/\(byford)", accept: "text/html")
        #expect(page.status == 200 && page.body.contains("Tomorrow’s prices") && page.body.contains("124.9"))

        // 20:00: held, so FuelWatch is not asked again; the board still answers.
        await deployment.poll(at: Self.perth(day, 20))
        #expect(deployment.fake.tomorrowRequests == 14)
        #expect(try await deployment.tomorrow()["available"] as? Bool == true)

        // 05:59 the next morning: still tomorrow's prices for the 25th.
        deployment.clock.set(Self.perth(next, 5, 59))
        board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == true && board["trading_day"] as? String == "2026-11-25")
        page = try await deployment.get("/stations/\(byford)", accept: "text/html")
        #expect(page.body.contains("Tomorrow’s prices"))

        // 06:00:01: promoted; FuelWatch's cache still serves the 24th's feed, which is refused: WA is stale.
        await deployment.poll(at: Self.perth(next, 6, 0, 1))
        let promoted = try await deployment.byfordU91(byford)
        #expect(promoted["price"] as? Double == 124.9)
        #expect(promoted["updated_at"] as? String == "2026-11-24T22:00:00Z")
        #expect(promoted["tomorrow"] == nil)
        var health = try await deployment.waHealth()
        #expect(health["status"] as? String == "stale")
        #expect((health["last_error"] as? String)?.contains("stale feed: dated 2026-11-24") == true, "\(health)")
        board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == false)
        #expect(board["trading_day"] as? String == "2026-11-26")
        #expect(board["expected_at"] as? String == "2026-11-25T06:30:00Z")
        page = try await deployment.get("/stations/\(byford)", accept: "text/html")
        #expect(!page.body.contains("Tomorrow’s prices") && page.body.contains("124.9"))

        // 07:00: a correctly dated feed: ok again, the promoted prices confirmed.
        deployment.fake.serveToday(dated: next)
        await deployment.poll(at: Self.perth(next, 7))
        health = try await deployment.waHealth()
        #expect(health["status"] as? String == "ok")
        #expect(try await deployment.byfordU91(byford)["price"] as? Double == 124.9)
    }

    @Test func aServerStartedAt2000FetchesTomorrowsPricesOnItsFirstPoll() async throws {
        let deployment = try Deployment(startingAt: Self.perth(Self.day, 20))
        defer { deployment.stop() }
        deployment.fake.publishTomorrow(dated: Self.day.advanced(by: 1))
        await deployment.poll(at: Self.perth(Self.day, 20))
        #expect(deployment.fake.tomorrowRequests == 7)
        let board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == true)
        #expect(board["published_at"] as? String == "2026-11-24T12:00:00Z")
        #expect(deployment.lines.all.last?.contains("first held 5h30m after 14:30") == true, "\(deployment.lines.all)")
    }

    @Test func aTomorrowFeedDatedTwoDaysAheadIsNeverServed() async throws {
        let deployment = try Deployment(startingAt: Self.perth(Self.day, 15))
        defer { deployment.stop() }
        deployment.fake.publishTomorrow(dated: Self.day.advanced(by: 2))
        await deployment.poll(at: Self.perth(Self.day, 15))
        let board = try await deployment.tomorrow()
        #expect(board["available"] as? Bool == false)
        #expect(deployment.lines.all.last?.contains("the feed is dated 2026-11-26, not merged") == true, "\(deployment.lines.all)")
    }

    @Test func aFeedOfGhostStationsIsRefusedAndTheRealFeedStillLands() async throws {
        let deployment = try Deployment(startingAt: Self.perth(Self.day, 9))
        defer { deployment.stop() }
        await deployment.poll(at: Self.perth(Self.day, 9))
        let before = try await deployment.json("/v1/stations?state=WA&limit=1")
        let count = try require((before["meta"] as? [String: Any])?["total"] as? Int)
        #expect(count > 300)

        // Three ghost copies of every site: refused, nothing added, WA stale with the reason.
        deployment.fake.serveGhosts(copies: 3)
        await deployment.poll(at: Self.perth(Self.day, 9, 31))
        let after = try await deployment.json("/v1/stations?state=WA&limit=1")
        #expect((after["meta"] as? [String: Any])?["total"] as? Int == count)
        var health = try await deployment.waHealth()
        #expect(health["status"] as? String == "stale")
        #expect((health["last_error"] as? String)?.hasPrefix("implausible growth") == true, "\(health)")

        // The real feed afterwards is accepted: the ghosts did not raise the bar for it.
        deployment.fake.serveGhosts(copies: 0)
        await deployment.poll(at: Self.perth(Self.day, 10, 1))
        health = try await deployment.waHealth()
        #expect(health["status"] as? String == "ok")
        #expect(health["stations"] as? Int == count)
    }
}

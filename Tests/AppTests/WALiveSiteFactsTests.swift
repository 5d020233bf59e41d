import Foundation
import Fuel
import Testing
@testable import App
@testable import Providers

/// Live WA: the RSS carries no access facts, so the poller fetches `/api/sites?fuelType=ULP`
/// from the fake FuelWatch once a day and joins its facts onto the RSS stations; `open_now=true` over live WA is
/// then non-empty. Real sockets, the real poller, an injected clock.
@Suite(.serialized, .timeLimit(.minutes(2)), .longScenario)
struct WALiveSiteFactsTests {
    typealias Deployment = TradingDayWalkTests.Deployment
    static let day = TradingDayWalkTests.day

    static func perth(_ day: CalendarDay, _ hour: Int, _ minute: Int = 0) -> Date {
        TradingDayWalkTests.perth(day, hour, minute)
    }

    func stations(_ deployment: Deployment, _ query: String) async throws -> [[String: Any]] {
        try require(try await deployment.json("/v1/stations?\(query)")["data"] as? [[String: Any]])
    }

    func station(_ deployment: Deployment, named name: String) async throws -> [String: Any] {
        let all = try await stations(deployment, "state=WA&limit=500")
        return try require(all.first { $0["name"] as? String == name }, "\(name) not listed")
    }

    @Test func liveWAStationsCarryTheSitesFactsAndOpenNowKeepsThe24HourOnes() async throws {
        let deployment = try Deployment(startingAt: Self.perth(Self.day, 14))
        defer { deployment.stop() }
        await deployment.poll(at: Self.perth(Self.day, 14))
        #expect(deployment.fake.sitesRequests == ["fuelType=ULP"])
        let line = try require(deployment.lines.all.last)
        #expect(line.hasPrefix("poll wa ok"), "\(line)")
        #expect(line.contains("sites fetched: 6 with facts") && line.contains("site facts on 3 of 380 stations"), "\(line)")

        let open = try await stations(deployment, "state=WA&open_now=true&limit=500")
        #expect(open.compactMap { $0["name"] as? String } == ["Caltex Woolworths Beckenham"])
        #expect(open.first?["open_24h"] as? Bool == true)
        #expect(open.first?["membership_required"] as? Bool == false)
        #expect(open.first?["open_now"] as? Bool == true)

        // Matched but not 24 hours: facts shown, opening unknown, so not in the open_now list.
        let wanneroo = try await station(deployment, named: "Coles Express Wanneroo")
        #expect(wanneroo["open_24h"] as? Bool == false && wanneroo["membership_required"] as? Bool == false)
        #expect(wanneroo["open_now"] is NSNull)
        // Unmatched: unknown, never guessed.
        let byford = try await station(deployment, named: "United Byford")
        #expect(byford["open_24h"] is NSNull && byford["membership_required"] is NSNull && byford["open_now"] is NSNull)
    }

    @Test func theSitesAreFetchedOnceADayAndAFailureKeepsTheLastFactsWithoutFailingThePoll() async throws {
        let deployment = try Deployment(startingAt: Self.perth(Self.day, 14))
        defer { deployment.stop() }
        await deployment.poll(at: Self.perth(Self.day, 14))
        // Half-hourly price polls until 13:59 the next day ask for no site list.
        await deployment.poll(at: Self.perth(Self.day, 14, 30))
        let next = Self.day.advanced(by: 1)
        deployment.fake.serveToday(dated: next)
        await deployment.poll(at: Self.perth(next, 13, 59))
        #expect(deployment.fake.sitesRequests.count == 1)

        // 24 h after the first fetch, with the next price poll (14:29): due again; the site list is down, the prices are not.
        deployment.fake.failSites(true)
        await deployment.poll(at: Self.perth(next, 14, 29))
        // One call, which the deployment's client sends up to 3 times on a 503 (its retry policy).
        #expect(deployment.fake.sitesRequests.count == 4)
        let line = try require(deployment.lines.all.last)
        #expect(line.hasPrefix("poll wa ok"), "\(line)")
        #expect(line.contains("sites failed (GET /api/sites?fuelType=ULP") && line.contains("keeping 6 site facts"), "\(line)")
        #expect(line.contains("site facts on 3 of 380 stations"), "\(line)")
        let open = try await stations(deployment, "state=WA&open_now=true&limit=500")
        #expect(open.compactMap { $0["name"] as? String } == ["Caltex Woolworths Beckenham"])

        // Not retried before another day has passed.
        deployment.fake.failSites(false)
        await deployment.poll(at: Self.perth(next, 14, 59))
        #expect(deployment.lines.all.last?.hasPrefix("poll wa ok") == true)
        #expect(deployment.fake.sitesRequests.count == 4)
    }

    @Test func withoutAnySiteFactsOpenNowKeepsLiveWAStationsAsUnknown() async throws {
        let deployment = try Deployment(startingAt: Self.perth(Self.day, 14))
        defer { deployment.stop() }
        deployment.fake.failSites(true)
        await deployment.poll(at: Self.perth(Self.day, 14))
        let line = try require(deployment.lines.all.last)
        #expect(line.hasPrefix("poll wa ok") && line.contains("no site facts yet"), "\(line)")
        // WA publishes no access facts at all now: the filter keeps its stations, each saying open_now null.
        let open = try await stations(deployment, "state=WA&open_now=true&limit=500")
        #expect(open.count == 380)
        #expect(open.allSatisfy { $0["open_now"] is NSNull })
    }
}

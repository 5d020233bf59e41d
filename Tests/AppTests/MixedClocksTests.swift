import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// WA on its bundled sample (recorded 22 Apr 2026, after 14:30, with the 23rd's prices) while NSW is live: the WA
/// board is judged at the recording's instant, NSW by the wall clock, and every `meta` says which is which.
@Suite struct MixedClocksTests {
    let wall = Date(timeIntervalSince1970: 1_795_500_000)  // 2026-11-24, well after every sample

    /// One app for the suite: its tests only read it, and each build renders the whole sample twice.
    static let shared = Result { try MixedClocksTests().makeApp() }
    func app() throws -> Application { try Self.shared.get() }

    func makeApp() throws -> Application {
        let (app, store) = try buildApplication(
            AppTestSupport.config(), logger: AppTestSupport.quietLogger(), clock: { [wall] in wall }, dataset: AppTestSupport.sampleDataset)
        let station = StationRecord(
            key: StationKey(provider: .nsw, sourceID: "live-1"), name: "Live Servo", brand: "Ampol", address: "1 George St",
            suburb: "Sydney", state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.87, longitude: 151.21))
        let price = PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: 1_899), updatedAt: wall.addingTimeInterval(-3_600))
        let report = store.apply(ProviderUpdate(provider: .nsw, stations: [station], prices: [price], asOf: wall), source: .live, at: wall)
        guard report.isApplied else { throw TestFailure("the live NSW update was not applied: \(report)") }
        return app
    }

    @Test func waOnItsSampleAnswersTomorrowAsRecordedWhileNSWIsLive() throws {
        let app = try app()
        let tomorrow = try AppTestSupport.json(try app.test(.GET, "/v1/tomorrow?state=WA&fuel=U91"))
        let data = try require(tomorrow["data"] as? [String: Any])
        #expect(data["available"] as? Bool == true)
        #expect(data["trading_day"] as? String == "2026-04-23")
        let meta = try require(tomorrow["meta"] as? [String: Any])
        #expect(meta["source"] as? String == "sample")
        let states = try require(meta["states"] as? [[String: Any]])
        #expect(states.count == 1 && states[0]["state"] as? String == "WA" && states[0]["source"] as? String == "sample")
        #expect((states[0]["as_of"] as? String)?.hasPrefix("2026-04-2") == true, "\(states)")

        let nsw = try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&limit=1"))
        let nswMeta = try require(nsw["meta"] as? [String: Any])
        #expect(nswMeta["source"] as? String == "live")
        #expect(nswMeta["as_of"] as? String == ISOTimestamp.string(wall))

        let all = try AppTestSupport.json(try app.test(.GET, "/v1/averages"))
        let sources = Dictionary(((all["meta"] as? [String: Any])?["states"] as? [[String: Any]] ?? []).map {
            ($0["state"] as? String ?? "", $0["source"] as? String ?? "")
        }, uniquingKeysWith: { $1 })
        #expect(sources["NSW"] == "live" && sources["WA"] == "sample" && sources["VIC"] == "sample")
        #expect((all["meta"] as? [String: Any])?["source"] as? String == "mixed")
    }

    @Test func theShareLinkOfALiveStationIsDatedByTheWallClockAndASampleOneByItsRecording() throws {
        let app = try app()
        let live = try AppTestSupport.json(try app.test(.GET, "/v1/stations?state=NSW&limit=1"))
        let id = try require(((live["data"] as? [[String: Any]])?.first)?["id"] as? Int)
        let page = try app.test(.GET, "/stations/\(id)", headers: ["Accept": "text/html"])
        // Set an hour ago by the wall clock, and no sample notice.
        #expect(page.bodyString.contains("<td class=\"updated\">updated "))
        #expect(!page.bodyString.contains("Sample data"))
        let board = try AppTestSupport.json(try app.test(.GET, "/v1/tomorrow?state=WA"))
        let first = try require(((board["data"] as? [String: Any])?["stations"] as? [[String: Any]])?.first?["station_id"] as? Int)
        let waPage = try app.test(.GET, "/stations/\(first)", headers: ["Accept": "text/html"])
        #expect(waPage.bodyString.contains("Tomorrow’s prices"))
        #expect(waPage.bodyString.contains("<p class=\"notice\"><strong>Sample data:</strong>"))
    }

    /// Advice and the widget summary in the same deployment: each city is judged by its own state's clock, so the
    /// recorded cities keep their recorded answers while live Sydney starts its history from the wall clock's day.
    @Test func adviceJudgesEachCityByItsOwnStatesClock() throws {
        let app = try app()
        func data(_ path: String) throws -> [String: Any] {
            let res = try app.test(.GET, path)
            #expect(res.status == .ok, "\(path): \(res.bodyString.prefix(300))")
            return try require(try AppTestSupport.json(res)["data"] as? [String: Any])
        }
        // Melbourne's newest recorded day is months before the wall clock, but VIC is on its recording: not stale.
        let melbourne = try data("/v1/advice?fuel=U91&city=melbourne")
        // Not stale (a cycle verdict is read), but the rule lost to the baselines on Melbourne's held-out days.
        #expect(melbourne["advice"] as? String == "no_reliable_signal", "\(melbourne)")
        #expect(melbourne["history_days"] as? Int == 41)
        // Perth on its sample is still the evening of the recording, with the next trading day's prices published.
        let perth = try data("/v1/advice?fuel=U91&city=perth")
        #expect(perth["advice"] as? String == "tomorrow_cheaper", "\(perth)")
        // Sydney is live: today's (wall clock) average is its only day in the window.
        let sydney = try data("/v1/advice?fuel=U91&near=-33.87,151.21")
        #expect(sydney["city"] as? String == "sydney")
        #expect(sydney["advice"] as? String == "not_enough_history", "\(sydney)")
        #expect(sydney["through"] as? String == "2026-11-24")
        #expect((sydney["reason"] as? String)?.contains("Only 1 of the 7 days") == true, "\(sydney)")

        let nsw = try data("/v1/summary?state=NSW&fuel=U91")
        #expect(nsw["station_count"] as? Int == 1 && nsw["min"] as? Double == 189.9, "\(nsw)")
        #expect((nsw["cheapest"] as? [[String: Any]])?.map { $0["name"] as? String } == ["Live Servo"])
        #expect((nsw["advice"] as? [String: Any])?["advice"] as? String == "not_enough_history")
        let vic = try data("/v1/summary?state=VIC&fuel=U91")
        #expect(vic["change_7d"] is NSNull && (vic["advice"] as? [String: Any])?["history_days"] as? Int == 41)
    }
}

import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite struct AdviceEndpointTests: OnSampleApp {
    func data(_ path: String) throws -> [String: Any] {
        let res = try app.test(.GET, path)
        #expect(res.status == .ok, "\(path): \(res.bodyString.prefix(300))")
        return try require(try AppTestSupport.json(res)["data"] as? [String: Any])
    }

    func badRequest(_ path: String, naming parameter: String) throws {
        let res = try app.test(.GET, path)
        #expect(res.status == .badRequest, "\(path)")
        let reason = try AppTestSupport.json(res)["reason"] as? String ?? ""
        #expect(reason.contains(parameter), "\(path): \(reason)")
    }

    @Test func melbourneAdviceComesFromTheRecordedDailyHistory() throws {
        let data = try data("/v1/advice?fuel=U91&city=melbourne")
        #expect(data["city"] as? String == "melbourne")
        #expect(data["state"] as? String == "VIC")
        #expect(data["fuel"] as? String == "U91")
        // On its held-out days the rule did worse than always filling up now: no reliable signal, with the evidence.
        #expect(data["advice"] as? String == "no_reliable_signal")
        let reason = try require(data["reason"] as? String)
        #expect(reason.contains("the Melbourne U91 cycle rule was right"), "\(reason)")
        #expect(reason.contains("always filling up now"), "\(reason)")
        #expect(reason.contains("This is sample data, recorded for 2026-08-21."), "\(reason)")
        let skill = try require(data["skill"] as? [String: Any])
        #expect(skill["best_baseline"] as? String == "always_fill_up_now")
        #expect((skill["hit_rate"] as? Double ?? 1) < (skill["baseline_hit_rate"] as? Double ?? 0))
        #expect(skill["days_scored"] as? Int ?? 0 >= AdviceSkill.minimumDaysScored)
        // 42-day window over the 50 recorded days, one of which the archive lacks.
        #expect(data["history_days"] as? Int == 41)
        let cycle = try require(data["cycle"] as? [String: Any])
        let position = try require(cycle["position"] as? Double)
        #expect((0...1).contains(position))
        #expect(["rising", "falling", "steady"].contains(cycle["direction"] as? String))
        #expect(cycle["days_since_low"] is Int && cycle["days_since_high"] is Int)
        #expect(cycle.keys.contains("typical_length_days"))
    }

    @Test func theRecordedVICHistoryKeepsAMetroSeriesBesideTheStateOne() throws {
        let history = AppTestSupport.sampleDataset.history
        let metro = history.points(city: .melbourne, fuel: .U91)
        let state = history.points(state: .VIC, fuel: .U91)
        #expect(metro.count == 51)  // one per recorded payload, and the current capture's panel for 08-21
        // 65 of the 120 recorded stations are in Greater Melbourne (PROVENANCE.md), not all selling U91 each day.
        #expect(metro.allSatisfy { $0.stationCount > 30 && $0.stationCount <= 65 })
        let stateByDay = Dictionary(uniqueKeysWithValues: state.map { ($0.day, $0) })
        #expect(metro.allSatisfy { $0.stationCount < (stateByDay[$0.day]?.stationCount ?? 0) })
        // The reading agrees with the series it reads.
        let reading = try require(CycleReading(points: metro))
        let window = metro.filter { $0.day >= reading.through.advanced(by: -(CycleReading.windowDays - 1)).description }
        #expect(reading.cycle.low == window.map(\.average).min())
        #expect(reading.cycle.high == window.map(\.average).max())
        let lowDay = try require(window.last { $0.average == reading.cycle.low }?.day)
        #expect(reading.daysSinceLow == reading.through.days(since: CalendarDay(lowDay)!))
    }

    @Test func anImplausibleMetroPointIsRefusedOnLoadAndFromALeader() throws {
        let bad = DailyPoint(day: "2026-03-01", average: 99_999, min: PriceTenths(tenths: 1_800), max: PriceTenths(tenths: 1_900), stationCount: 3)
        let history = History(series: [:], metro: [MetroFuel(.perth, .U91): [bad]])
        #expect(throws: (any Error).self) { try LoadLimits.check(history) }
        #expect(DatasetValidation.problem(in: history) != nil)
        #expect(DatasetValidation.problem(in: AppTestSupport.sampleDataset.history) == nil)
    }

    @Test func aPointInPerthGetsPerthsAdviceWithTomorrowsPrices() throws {
        let data = try data("/v1/advice?fuel=u91&near=-31.9523,115.8613")
        #expect(data["city"] as? String == "perth")
        // The WA sample holds the next trading day's prices, and its clock is its capture (after 14:30).
        #expect(data["advice"] as? String == "tomorrow_cheaper")
        #expect((data["reason"] as? String)?.contains("Tomorrow's prices are published") == true)
        // Sample data says so, with its date (it used to read as today's).
        let reason = data["reason"] as? String ?? ""
        #expect(reason.contains("c/L at 6 am on 2026-04-23 across") && reason.hasSuffix("stations. Sample data."), "\(data)")
        let tomorrow = try require(data["tomorrow"] as? [String: Any])
        #expect((tomorrow["tomorrow_average"] as? Double ?? 999) < (tomorrow["today_average"] as? Double ?? 0))
        // Seeded with FuelWatch's own metro averages: more than the 8 captured days.
        #expect(data["history_days"] as? Int ?? 0 > 30)
    }

    @Test func theSummaryCarriesTheAdviceOfItsPoint() throws {
        for (state, near) in [("VIC", "-38.1499,144.3617"), ("WA", "-32.5269,115.7217"), ("WA", "-33.3271,115.6414"), ("VIC", "-37.8136,144.9631"), ("WA", "-31.9523,115.8613")] {
            let advice = try data("/v1/advice?fuel=U91&near=\(near)")
            let summary = try require(try data("/v1/summary?state=\(state)&fuel=U91&near=\(near)")["advice"] as? [String: Any])
            #expect(NSDictionary(dictionary: summary).isEqual(to: advice), "\(near): \(summary) vs \(advice)")
        }
        // Geelong is outside Melbourne: no Melbourne advice there (it used to be Melbourne's "wait").
        #expect(try data("/v1/advice?fuel=U91&near=-38.1499,144.3617")["advice"] as? String == "no_cycle")
    }

    /// The sample has no Mandurah site; Bunbury's (195.9 today, 193.9 tomorrow) stand in for a WA town outside Perth.
    @Test func bunburyGetsTomorrowBasedAdviceFromItsOwnStations() throws {
        let data = try data("/v1/advice?fuel=U91&near=-33.3271,115.6414")
        #expect(data["city"] is NSNull)
        #expect(data["state"] as? String == "WA")
        #expect(data["advice"] as? String == "tomorrow_cheaper", "\(data)")  // was no_cycle
        let tomorrow = try require(data["tomorrow"] as? [String: Any])
        #expect(tomorrow["station_count"] as? Int ?? 0 > 0)
        #expect((data["reason"] as? String)?.contains("stations within 10 km") == true)
    }

    @Test func aPointOutsideEveryMetroAreaHasNoCycle() throws {
        let data = try data("/v1/advice?fuel=U91&near=-23.70,133.88")
        #expect(data["advice"] as? String == "no_cycle")
        #expect(data["city"] is NSNull && data["cycle"] is NSNull)
        #expect((data["reason"] as? String)?.contains("outside") == true)
    }

    @Test func badParametersAre400sNamingTheParameter() throws {
        try badRequest("/v1/advice?city=melbourne", naming: "fuel")
        try badRequest("/v1/advice?fuel=XYZ&city=melbourne", naming: "fuel")
        try badRequest("/v1/advice?fuel=U91&city=hobart", naming: "city")
        try badRequest("/v1/advice?fuel=U91&near=abc", naming: "near")
        try badRequest("/v1/advice?fuel=U91&near=-95,115", naming: "near")
        try badRequest("/v1/advice?fuel=U91", naming: "near")
        try badRequest("/v1/summary?fuel=U91", naming: "state")
        try badRequest("/v1/summary?state=XX&fuel=U91", naming: "state")
        try badRequest("/v1/summary?state=NSW", naming: "fuel")
        try badRequest("/v1/summary?state=NSW&fuel=U91&near=1", naming: "near")
    }

    @Test func bothRoutesAnswer304ToTheirOwnETag() throws {
        for path in ["/v1/advice?fuel=U91&city=sydney", "/v1/advice?fuel=U91&near=-33.87,151.21", "/v1/summary?state=VIC&fuel=U91",
                     "/v1/summary?state=NSW&fuel=U91&near=-33.87,151.21"] {
            let first = try app.test(.GET, path)
            let etag = try require(first.headers.first(name: "ETag"), "\(path): no ETag")
            #expect(try app.test(.GET, path, headers: ["If-None-Match": etag]).status == .notModified, "\(path)")
        }
        // A near variant with a different answer has a different tag.
        let sydney = try app.test(.GET, "/v1/summary?state=NSW&fuel=U91&near=-33.87,151.21").headers.first(name: "ETag")
        let newcastle = try app.test(.GET, "/v1/summary?state=NSW&fuel=U91&near=-32.93,151.78").headers.first(name: "ETag")
        #expect(sydney != newcastle)
    }

    @Test func summaryHasTheWidgetsNumbers() throws {
        let wa = try data("/v1/summary?state=WA&fuel=U91")
        #expect(wa["station_count"] as? Int ?? 0 > 0)
        #expect(wa["average"] is Double && wa["min"] is Double)
        let tomorrow = try require(wa["tomorrow"] as? [String: Any])
        #expect(tomorrow["tomorrow_cheaper"] as? Int ?? 0 > 0)
        #expect((wa["advice"] as? [String: Any])?["city"] as? String == "perth")
        let cheapest = try require(wa["cheapest"] as? [[String: Any]])
        #expect(cheapest.count == 3)
        let prices = cheapest.compactMap { $0["price"] as? Double }
        #expect(prices == prices.sorted() && prices.first == wa["min"] as? Double)
        #expect(cheapest.allSatisfy { $0["distance_km"] is NSNull && $0["id"] is Int && $0["name"] is String })

        let vic = try data("/v1/summary?state=VIC&fuel=U91&near=-37.8136,144.9631")
        // VIC's sample history is a panel's: its change is not set beside the state's average (`SeriesBasis`).
        #expect(vic["change_7d"] is NSNull)
        #expect(vic["tomorrow"] is NSNull)
        let near = try require(vic["cheapest"] as? [[String: Any]])
        #expect(!near.isEmpty && near.allSatisfy { ($0["distance_km"] as? Double ?? 99) <= SummaryController.nearRadiusKm })

        // No cycling city in Tasmania: the advice object says `no_cycle` (one shape, never null, issue 48 §16); a point in
        // Sydney asked about ACT gets Sydney's.
        let tas = try require(try data("/v1/summary?state=TAS&fuel=U91")["advice"] as? [String: Any])
        #expect(tas["advice"] as? String == "no_cycle")
        let reason = tas["reason"] as? String ?? ""
        #expect(reason.contains("this state") && !reason.contains("point"), "no point was given: \(reason)")
        let act = try data("/v1/summary?state=ACT&fuel=U91&near=-33.87,151.21")
        #expect((act["advice"] as? [String: Any])?["city"] as? String == "sydney")
    }

    /// The widget's three follow `/v1/prices/cheapest`'s access rule (never the members-only LMCT+ Preston stations
    /// 3375 and 5099, closed at the recording's hour), and say whether each is open.
    @Test func summaryStationsFollowTheCheapestAccessRuleAndCarryOpenNow() throws {
        let near = "near=-37.8136,144.9631"
        let summary = try require(try data("/v1/summary?state=VIC&fuel=U91&\(near)")["cheapest"] as? [[String: Any]])
        let ids = summary.compactMap { $0["id"] as? Int }
        #expect(ids.count == 3 && !ids.contains(3375) && !ids.contains(5099), "\(ids)")
        let cheapest = try AppTestSupport.json(try app.test(.GET, "/v1/prices/cheapest?fuel=U91&\(near)&radius_km=10&limit=3"))
        let expected = (cheapest["data"] as? [[String: Any]] ?? []).compactMap { ($0["station"] as? [String: Any])?["id"] as? Int }
        #expect(ids == expected)
        for station in summary {
            #expect(station.keys.contains("open_now") && station.keys.contains("membership_required"), "\(station)")
            #expect(station["open_now"] as? Bool != false && station["membership_required"] as? Bool != true, "\(station)")
        }
        let statewide = try require(try data("/v1/summary?state=VIC&fuel=U91")["cheapest"] as? [[String: Any]])
        #expect(statewide.allSatisfy { $0["open_now"] as? Bool != false && $0["membership_required"] as? Bool != true })
    }

    @Test func everySampleSummaryFitsInTheBudget() throws {
        var largest = 0
        for state in AustralianState.allCases {
            for fuel in FuelType.allCases {
                for near in ["", "&near=-33.87,151.21", "&near=-37.81,144.96", "&near=-31.95,115.86", "&near=-20,135"] {
                    let res = try app.test(.GET, "/v1/summary?state=\(state.rawValue)&fuel=\(fuel.rawValue)\(near)")
                    #expect(res.status == .ok)
                    largest = max(largest, res.body.count)
                    // The ETag's hash starts from the parts' and the board's (hashed once): it is still the body's.
                    var hash = FNV1a()
                    hash.combine(Array(res.body))
                    #expect(res.headers.first(name: "ETag") == "W/" + hash.etag, "\(state) \(fuel) \(near)")
                }
            }
        }
        #expect(largest <= SummaryController.maxBytes, "largest \(largest)")
    }

    /// The worst case: three maximum-length names of 3-byte characters near the point, Perth's longest advice
    /// with tomorrow's prices, every number at its widest.
    @Test func theWorstCaseSummaryFitsInTheBudget() throws {
        let asOf = Date(timeIntervalSince1970: 1_776_000_000)
        let name = String(repeating: "€", count: FeedPolicy.maxTextLength)
        let ids = (1...5).map(String.init)
        let key = { (id: String) in StationKey(provider: .wa, sourceID: id) }
        let update = ProviderUpdate(
            provider: .wa,
            stations: ids.map {
                StationRecord(
                    key: key($0), name: name, brand: name, address: name, suburb: name, state: .WA, postcode: "6000",
                    location: Coordinate(latitude: -31.95 + Double($0)! / 1_000, longitude: 115.86))
            },
            prices: ids.map { PriceRecord(station: key($0), fuel: .PDL, price: PriceTenths(tenths: 2_999 + Int($0)!), updatedAt: asOf) },
            tomorrow: ids.map {
                TomorrowPriceRecord(
                    station: key($0), fuel: .PDL, price: PriceTenths(tenths: 2_888),
                    day: WATradingDay.nextTradingDay(after: asOf).description)
            },
            asOf: asOf)
        let dataset = Dataset().merging(update, source: .sample, at: asOf).0
        let app = try AppTestSupport.app(with: dataset, clock: { asOf })
        for path in ["/v1/summary?state=WA&fuel=PDL&near=-31.95,115.86", "/v1/summary?state=WA&fuel=PDL"] {
            let res = try app.test(.GET, path)
            #expect(res.status == .ok)
            #expect(res.body.count <= SummaryController.maxBytes, "\(path): \(res.body.count) bytes")
            #expect(res.bodyString.contains("…"))
        }
    }
}

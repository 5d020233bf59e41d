import Foundation
import Fuel
import Testing
import HTTP
@testable import API
@testable import App

/// The numbers a motorist trusts, checked against the bundled recorded payloads.
@Suite struct SampleNumbersTests {
    static let index = FuelIndex(snapshot: AppTestSupport.sampleDataset.snapshot)
    /// The sample's station JSON, rendered once for the suite.
    static let rendered = RenderedSnapshot.render(SnapshotBasis(dataset: AppTestSupport.sampleDataset, index: index))
    var index: FuelIndex { Self.index }
    var snapshot: Snapshot { Self.index.snapshot }

    /// ACT is served by NSW FuelCheck, whose full feed lists every current price: a price it lists counts however
    /// old (30 stations with prices set within 30 days, 57 listed).
    @Test func actU91CountsEveryPriceTheFullFeedLists() throws {
        let act = try #require(index.averages[.ACT, .U91])
        #expect(act.stationCount == 57)
        #expect(Rounded(act.average).value == 186.61)
        #expect(PricePolicy.currentWithinDays == 30)
    }

    /// Every E10 price the full feed lists (1,474; 1,383 set within 30 days): mean 167.7, median 162.85.
    @Test func nswE10HasAMedianBesideTheMean() throws {
        let nsw = try #require(index.averages[.NSW, .E10])
        #expect(nsw.stationCount == 1_474)
        #expect(Rounded(nsw.median).value == 162.85)
        #expect(Rounded(nsw.average, places: 1).value == 167.7)
        #expect(PriceJudge.median(of: [1, 5, 2, 9]) == 3.5)
        #expect(PriceJudge.median(of: [7, 1, 5]) == 5)
    }

    @Test func theVICPlaceholderIsFlaggedImplausibleAndCountsNowhere() throws {
        let placeholder = PriceTenths(tenths: 3_500)
        let slots = snapshot.entries.indices.filter { slot in
            snapshot.entries[slot].station.state == .VIC && snapshot.entries[slot].prices.contains { $0.price == placeholder }
        }
        #expect(!slots.isEmpty)
        // Caltex Reservoir lists 350.0 for U91, E10, P98 and premium diesel: one value for every fuel is a
        // placeholder for all of them (premium diesel's 350.0 used to count, 38 % above its 253.9 median).
        for slot in slots {
            for price in snapshot.entries[slot].prices where price.price == placeholder {
                #expect(index.standing(price.fuel, slot: slot).contains(.implausible), "\(price.fuel)")
            }
        }
        for fuel in [FuelType.U91, .E10, .P98, .PDL] {
            let average = try #require(index.averages[.VIC, fuel])
            #expect(average.max < placeholder, "VIC \(fuel) max \(average.max)")
        }
        let ranked = try index.stations(matching: StationQuery(state: .VIC, fuel: .U91, sort: .price, limit: 500, offset: 0))
        let last = try index.stations(matching: StationQuery(state: .VIC, fuel: .U91, sort: .price, limit: 1, offset: ranked.total - 1))
        #expect(last.matches.first?.price?.price != placeholder)
        // Its JSON says so.
        let rendered = Self.rendered
        let json = String(decoding: rendered.fragments[slots[0]], as: UTF8.self)
        #expect(json.contains("\"price\":350.0,\"vs_average\":null,\"vs_average_of\":null,\"updated_at\":") && json.contains("\"implausible\":true"))
    }

    /// On the recorded VIC payload, each odd station's fuels are judged by one rule.
    @Test func oneRuleJudgesEveryFuelOfTheOddVICStations() throws {
        func flags(_ name: String) throws -> [FuelType: Bool] {
            let slot = try #require(snapshot.entries.indices.first { snapshot.entries[$0].station.state == .VIC && snapshot.entries[$0].station.name == name }, "\(name)")
            var out: [FuelType: Bool] = [:]
            for price in snapshot.entries[slot].prices { out[price.fuel] = index.standing(price.fuel, slot: slot).contains(.implausible) }
            return out
        }
        // Before: U91 300 out, P95 300 (VIC's P95 maximum) and diesel 330 in.
        #expect(try flags("mitta general store") == [.U91: true, .P95: true, .DL: true])
        // Before: U91 299.9 out, diesel 299.9 in.
        #expect(try flags("Top End Servo Shell") == [.U91: true, .DL: true, .LPG: false])
        // Before: both LPG prices out.
        #expect(try flags("Shell - Benetook Automotives")[.LPG] == false)
        #expect(try flags("Simpsons Fuel Alexandra")[.LPG] == false)
        #expect(try #require(index.averages[.VIC, .P95]).max < PriceTenths(tenths: 3_000))
        #expect(try #require(index.averages[.VIC, .LPG]).max == PriceTenths(tenths: 1_559))
    }

    /// NSW's full feed lists every current price, so a price it still lists is current however old its
    /// `lastupdated` (159 of the sample's 211 LPG prices are over 30 days old).
    @Test func aPriceNSWsFullFeedStillListsCountsHoweverOld() throws {
        let old = Date(timeIntervalSince1970: 1_700_000_000)  // 2023-11
        let listed = try #require(snapshot.entries.indices.first { slot in
            snapshot.entries[slot].station.state == .NSW
                && snapshot.entries[slot].prices.contains { $0.fuel == .LPG && $0.price == PriceTenths(tenths: 899) && $0.updatedAt < old }
        })
        #expect(index.standing(.LPG, slot: listed) == .counts)
        let lpg = try #require(index.averages[.NSW, .LPG])
        #expect(lpg.stationCount > 200)  // was 52
        let rendered = Self.rendered
        #expect(!String(decoding: rendered.fragments[listed], as: UTF8.self).contains("\"stale\":true"))
        #expect(snapshot.status(of: .nsw)?.fullFeedAt == snapshot.asOf(.nsw))
    }

    @Test func waHasMetroAndRegionalAverages() throws {
        let metro = try #require(index.averages[.WA, .U91, .metro])
        let regional = try #require(index.averages[.WA, .U91, .regional])
        let state = try #require(index.averages[.WA, .U91])
        #expect(metro.stationCount + regional.stationCount == state.stationCount)
        #expect(metro.average < state.average && state.average < regional.average)
        let waSites = snapshot.entries.filter { $0.station.state == .WA }
        #expect(waSites.count { PriceRegion.of($0.station) == .metro } == 28)
        #expect(waSites.count { PriceRegion.of($0.station) == .regional } == 52)
    }

    /// Not a check: prints the table of every state and fuel average for the report.
    @Test func printAverageTable() {
        guard ProcessInfo.processInfo.environment["PETTY_PRINT_AVERAGES"] != nil else { return }
        var before: [StateFuel: [Int]] = [:]
        var cutoffs: [ProviderID: Date] = [:]
        for status in snapshot.statuses { if let asOf = status.asOf { cutoffs[status.provider] = asOf.addingTimeInterval(-7 * 86_400) } }
        for entry in snapshot.entries {
            for price in entry.prices {
                if let cutoff = cutoffs[entry.station.provider], price.updatedAt < cutoff { continue }
                before[StateFuel(entry.station.state, price.fuel), default: []].append(price.price.tenths)
            }
        }
        print("| state | fuel | before mean | before median | before n | after mean | after median | after n |")
        let rows = index.averages.all.flatMap { row in [row] + index.averages.regional.filter { $0.state == row.state && $0.fuel == row.fuel } }
        let keys = Set(before.keys).union(index.averages.all.map { StateFuel($0.state, $0.fuel) })
        for key in keys.sorted() {
            let old = before[key] ?? []
            let oldText = old.isEmpty ? "- | - | 0" : String(format: "%.2f | %.2f | %d", Double(old.reduce(0, +)) / Double(old.count) / 10, PriceJudge.median(of: old) / 10, old.count)
            for row in rows where row.state == key.state && row.fuel == key.fuel {
                let name = row.region.map { "\(key.state.rawValue) \($0.rawValue)" } ?? key.state.rawValue
                print(String(format: "| %@ | %@ | %@ | %.2f | %.2f | %d |", name, key.fuel.rawValue, row.region == nil ? oldText : "- | - | -", row.average, row.median, row.stationCount))
            }
            if !rows.contains(where: { $0.state == key.state && $0.fuel == key.fuel }) {
                print("| \(key.state.rawValue) | \(key.fuel.rawValue) | \(oldText) | - | - | 0 |")
            }
        }
    }
}

/// The wire side of the same rules, through the app.
@Suite struct SampleNumbersEndpointTests {
    func text(_ response: TestResponse) -> String { response.bodyString }

    @Test func flaggedPricesAreServedWithTheirFlags() throws {
        let app = try AppTestSupport.sharedSampleApp()
        // 2593's LPG 89.9 from 2023 is still listed by NSW's full feed: current, compared with the NSW average.
        let listed = text(try app.test(.GET, "/v1/stations/2593"))
        #expect(listed.contains("\"fuel\":\"LPG\",\"fuel_name\":\"LPG\",\"price\":89.9,\"vs_average\":-27.3,\"vs_average_of\":\"NSW\",\"updated_at\":\"2023-06-20"))
        #expect(!listed.contains("\"stale\":true"))
        let placeholder = text(try app.test(.GET, "/v1/stations/4896"))
        #expect(placeholder.contains("\"implausible\":true"))
        let cheapest = text(try app.test(.GET, "/v1/prices/cheapest?fuel=LPG&state=NSW&limit=50"))
        #expect(cheapest.contains("\"id\":2593,"))
    }

    @Test func averagesStateTheirWindowMedianAndWARegions() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let body = text(try app.test(.GET, "/v1/averages?state=WA&fuel=U91"))
        #expect(body.contains("\"current_within_days\":30"))
        #expect(body.contains("\"median\":"))
        let metro = try #require(body.range(of: "\"region\":\"metro\""))
        let regional = try #require(body.range(of: "\"region\":\"regional\""))
        #expect(metro.lowerBound < regional.lowerBound)
        #expect(body.contains("\"total\":3"))
    }
}

/// The VIC trend seeded from the 50 recorded daily payloads.
@Suite struct SampleTrendTests {
    @Test func eachVICCaptureIsLabelledByTheDayItDescribes() throws {
        let history = AppTestSupport.sampleDataset.history
        let points = history.points(state: .VIC, fuel: .U91)
        // 50 payloads (vic_prices_2026-07-02 ... 08-21, no 08-06 file), each describing the day before its file date,
        // and the current capture's panel point for 08-21.
        #expect(points.count == 51)
        var expected: [String] = []
        var day = try #require(CalendarDay("2026-07-01"))
        while day.description <= "2026-08-21" {
            if day.description != "2026-08-05" { expected.append(day.description) }
            day = day.advanced(by: 1)
        }
        #expect(points.map(\.day) == expected)
        // 07-26 is there (it was missing when the newest price's date was the label).
        #expect(points.contains { $0.day == "2026-07-26" })
    }

    @Test func theNewestVICPointComesFromTheSamePanelAsTheOthers() throws {
        let points = AppTestSupport.sampleDataset.history.points(state: .VIC, fuel: .U91)
        let last = try #require(points.last)
        // The panel has 120 stations; the whole state (the current capture) has ~1,600 U91 prices.
        #expect(points.allSatisfy { $0.stationCount <= 120 }, "\(last)")
        let trend = AppTestSupport.sampleDataset.history.trend(state: .VIC, fuel: .U91, days: 90)
        #expect(trend.through == "2026-08-21")
        #expect(last.day == "2026-08-21")
    }
}

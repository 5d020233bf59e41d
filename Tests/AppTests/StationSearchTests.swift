import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `q=` over names, brands and suburbs (case- and accent-insensitive word prefixes) and
/// `postcode=`, checked against a scan of the sample stations.
@Suite struct StationSearchTests: OnSampleApp {
    private func list(_ query: String) throws -> (data: [[String: Any]], total: Int) {
        let response = try app.test(.GET, "/v1/stations?\(query)")
        #expect(response.status == .ok, "\(query): \(response.bodyString.prefix(200))")
        let json = try AppTestSupport.json(response)
        let meta = try require(json["meta"] as? [String: Any])
        return (try require(json["data"] as? [[String: Any]]), try require(meta["total"] as? Int))
    }

    /// The brute force: every fuel station (searches leave out EV chargers by default) whose name, brand or suburb
    /// has a word starting with each query word.
    private func scan(_ words: [String], where keep: (Station) -> Bool = { _ in true }) -> [Station] {
        AppTestSupport.sampleDataset.snapshot.entries.map(\.station).filter { station in
            let own = SearchText.words(station.name) + SearchText.words(station.brand) + SearchText.words(station.suburb)
            return station.kind == .fuel && keep(station) && words.allSatisfy { word in own.contains { $0.hasPrefix(word) } }
        }
    }

    @Test func wordPrefixesFindBondiJunctionAsAScanDoes() throws {
        let found = try list("q=bond%20jun&limit=500")
        let expected = scan(["bond", "jun"])
        #expect(found.total == expected.count && found.total >= 1, "\(found.total) vs \(expected.count)")
        #expect(Set(found.data.compactMap { $0["id"] as? Int }) == Set(expected.map(\.id.rawValue)))
        #expect(found.data.contains { $0["suburb"] as? String == "Bondi Junction" })
    }

    @Test func caseAndAccentsDoNotMatter() throws {
        let plain = try list("q=bondi%20junction&limit=500")
        let shouted = try list("q=B%C3%96NDI%20JUNCTION&limit=500")  // BÖNDI JUNCTION
        #expect(plain.total > 0 && plain.total == shouted.total)
        #expect(plain.data.compactMap { $0["id"] as? Int } == shouted.data.compactMap { $0["id"] as? Int })
    }

    @Test func searchCombinesWithFiltersAndRanksThenSortsByPrice() throws {
        let found = try list("q=bondi&fuel=U91&sort=price&limit=500")
        let expected = scan(["bondi"]) { station in
            AppTestSupport.sampleDataset.snapshot[station.id]?.price(of: .U91) != nil
        }
        #expect(found.total <= expected.count && found.total > 0)
        // Whole-word matches first, each group by price.
        let whole = found.data.map { station in
            ["name", "brand", "suburb"].contains { SearchText.words(station[$0] as? String ?? "").contains("bondi") }
        }
        #expect(whole == whole.sorted { $0 && !$1 }, "whole-word matches should rank first")
        let prices = found.data.map { station in
            ((station["prices"] as? [[String: Any]]) ?? []).first { $0["fuel"] as? String == "U91" }?["price"] as? Double ?? 0
        }
        let firstGroup = prices.prefix { _ in true }.enumerated().filter { whole[$0.offset] }.map(\.element)
        #expect(firstGroup == firstGroup.sorted())
    }

    @Test func postcodeIsExactAndCombines() throws {
        let found = try list("postcode=2026&limit=500")
        let expected = scan([]) { $0.postcode == "2026" }
        #expect(found.total == expected.count && found.total > 0)
        #expect(found.data.allSatisfy { $0["postcode"] as? String == "2026" })
        let both = try list("postcode=2026&q=ampol&limit=500")
        #expect(both.total == scan(["ampol"]) { $0.postcode == "2026" }.count)
    }

    @Test func badSearchesAreNamed400s() throws {
        for (query, name) in [("q=", "q"), ("q=%21%21%21", "q"), ("postcode=20", "postcode"), ("postcode=abcd", "postcode"),
                              ("q=" + String(repeating: "a", count: 101), "q"), ("q=a%20b%20c%20d%20e%20f%20g%20h%20i", "q"),
                              ("q=kens&after=3", "after")] {
            let response = try app.test(.GET, "/v1/stations?\(query)")
            #expect(response.status == .badRequest, "\(query)")
            #expect((try AppTestSupport.json(response)["reason"] as? String)?.contains(name) == true, "\(query)")
        }
    }
}

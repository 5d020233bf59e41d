import Foundation
@testable import Fuel
import HTTP
import Testing
@testable import API
@testable import App

/// `q=` forgives what people type: one edit in a word of five letters or more, the usual abbreviations of place
/// names both ways (`st`/`saint`, `mt`/`mount`, `jnct`/`junction`), exact matches ranked first.
@Suite struct ForgivingSearchTests: OnSampleApp {
    private func ids(_ q: String) throws -> [Int] {
        let escaped = q.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!
        let response = try app.test(.GET, "/v1/stations?q=\(escaped)&limit=500")
        #expect(response.status == .ok, "\(q): \(response.bodyString.prefix(200))")
        return try AppTestSupport.list(response).data.compactMap { $0["id"] as? Int }
    }

    @Test(arguments: [
        ("bondi juntion", "bondi junction"), ("bondi jnct", "bondi junction"), ("mt druitt", "mount druitt"),
        ("saint kilda", "st kilda"), ("st. kilda", "saint kilda"), ("parramata", "parramatta"),
    ])
    func aForgivenSpellingFindsWhatTheUsualOneFinds(typed: String, usual: String) throws {
        let found = try ids(typed)
        let expected = try ids(usual)
        #expect(!expected.isEmpty, "\(usual) finds nothing in the sample")
        #expect(Set(found) == Set(expected), "\(typed): \(found.count) against \(expected.count)")
    }

    @Test func shortWordsGetNoEditAndNothingFarMatches() throws {
        // `bondo` is one edit from `bondi` (five letters); `bond` is a prefix; `bonf` (four letters) gets no edit.
        #expect(!(try ids("bondo")).isEmpty)
        #expect(try ids("bonfi junction").isEmpty == false)
        #expect(try ids("bonf").isEmpty)
        #expect(try ids("bxndx junction").isEmpty)
    }

    @Test func exactMatchesRankBeforeAForgivenOne() throws {
        // A word found only one edit away ranks below one found as typed.
        let index = FuelIndex(snapshot: AppTestSupport.sampleDataset.snapshot)
        let matches = index.search.matches(["parramata"])
        #expect(matches.count > 0)
        #expect((0..<matches.count).allSatisfy { matches.match(at: $0) == .approximate })
        let exact = index.search.matches(["parramatta"])
        #expect((0..<exact.count).allSatisfy { exact.match(at: $0) == .whole })
    }

    @Test func oneEditIsOneEdit() {
        #expect(SearchForgiveness.withinOneEdit("junction", "juntion"))
        #expect(SearchForgiveness.withinOneEdit("junction", "junctoin") == false)
        #expect(SearchForgiveness.withinOneEdit("bondi", "bondo"))
        #expect(SearchForgiveness.withinOneEdit("bondi", "bondis"))
        #expect(SearchForgiveness.withinOneEdit("bondi", "bond"))
        #expect(!SearchForgiveness.withinOneEdit("bondi", "bon"))
        #expect(SearchForgiveness.withinOneEdit("kilda", "kilda"))
    }
}

import Foundation
import Testing
@testable import Fuel

/// The `q=` index and its ASCII shortcut against brute force over the bundled sample stations: what a match is
/// must not depend on which path found it.
@Suite struct SearchIndexAgreementTests {
    // Shared by every test and argument: Swift Testing makes a suite instance per test case.
    static let snapshot = AppTestSupport.sampleDataset.snapshot
    static let index = FuelIndex(snapshot: snapshot)
    static let words = SampleStationWords(snapshot)
    var snapshot: Snapshot { Self.snapshot }
    var index: FuelIndex { Self.index }

    /// Per slot: the worst, over query words, of the best way one of the station's words starts with it.
    func scan(_ query: [String]) -> [StationSearchIndex.Match] { Self.words.scan(query) }

    @Test func asciiWordsAreWhatFoundationFoldingGives() {
        var texts = snapshot.entries.flatMap { [$0.station.name, $0.station.brand, $0.station.suburb, $0.station.address] }
        texts += ["7-Eleven", "  BONDI   Junction ", "a\tb\nc", "x_y.z", "O'Brien's", "", "---",
                  String(decoding: (0..<128).map { UInt8($0) }, as: UTF8.self)]
        for text in texts {
            #expect(SearchText.asciiWords(text) == SearchText.foldedWords(text) || SearchText.asciiWords(text) == nil, "\(text)")
        }
        #expect(texts.filter { SearchText.asciiWords($0) != nil }.count > texts.count / 2, "most sample text is ASCII")
        #expect(SearchText.asciiWords("Café") == nil)
        #expect(SearchText.words("BÖNDI Café") == ["bondi", "cafe"])
    }

    @Test func theIndexMatchesWhatAScanOfEveryStationMatches() {
        let vocabulary = Self.words.vocabulary
        var queries: [[String]] = [["bond", "jun"], ["bondi", "junction"], ["7", "eleven"], ["a"], ["zzz"], ["ampol", "ampol"],
                                   ["bond", "bondi"], ["s", "r"]]
        for (position, word) in vocabulary.enumerated() where position % 61 == 0 {
            for length in [1, 2, 3, word.count] { queries.append([String(word.prefix(length))]) }
            queries.append([String(word.prefix(3)), String(vocabulary[(position * 7) % vocabulary.count].prefix(2))])
        }
        var matched = 0
        for query in queries {
            let expected = scan(query)
            let found = index.search.matches(query)
            let listed = found.slots.map(Int.init)
            #expect(listed == expected.indices.filter { expected[$0] != .none }, "\(query)")
            #expect(listed.indices.map { found.match(at: $0) } == listed.map { expected[$0] }, "\(query)")
            #expect(expected.indices.allSatisfy { found[$0] == expected[$0] }, "\(query)")
            matched += listed.count
        }
        #expect(queries.count > 100 && matched > 1_000)
    }

    /// `q` with other filters: the stations the same query finds without `q`, kept when the scan matches them,
    /// whole-word matches first (a stable sort keeps the rest of the order).
    @Test(arguments: [
        ("bond jun", StationQuery(fuel: .U91, sort: .price, limit: 500)),
        ("bondi", StationQuery(state: .NSW, limit: 500)),
        ("shell", StationQuery(state: .VIC, fuel: .E10, sort: .price, limit: 500)),
        ("s", StationQuery(sort: .name, limit: 500)),
        ("north", StationQuery(fuel: .U91, near: Coordinate(latitude: -33.87, longitude: 151.21), radiusKm: 30, limit: 500)),
        ("ampol", StationQuery(limit: 20, offset: 3)),
    ])
    func searchWithFiltersKeepsTheOrderOfTheSameQueryWithoutIt(q: String, base: StationQuery) throws {
        let words = SearchText.words(q)
        let expected = scan(words)
        var everything = base
        everything.limit = StationQuery.maximumLimit
        everything.offset = 0
        let unsearched = try index.allSlots(matching: everything)
        let ranked = unsearched.filter { expected[$0] == .whole } + unsearched.filter { expected[$0] == .prefix }
            + unsearched.filter { expected[$0] == .approximate }
        var searched = base
        searched.text = words
        let page = try index.slots(matching: searched)
        #expect(page.total == ranked.count && page.total > 0, "\(q)")
        #expect(page.hits.map(\.slot) == Array(ranked.dropFirst(base.offset).prefix(base.limit)), "\(q)")
    }
}

@testable import Fuel

/// The brute-force side of the `q=` agreement tests: every station's words (name, brand, suburb) as the index takes
/// them, each held by its position in the sorted vocabulary. A query word is compared with each distinct word once,
/// not once per station carrying it; the rule is unchanged (a word equal to the query word is whole, one starting
/// with it is a prefix).
struct SampleStationWords {
    /// Every distinct word of every station, sorted.
    let vocabulary: [String]
    /// Per slot, the station's distinct words as positions in `vocabulary`.
    let stations: [[Int]]

    init(_ snapshot: Snapshot) {
        let perStation = snapshot.entries.map { entry in
            let station = entry.station
            var own = Set(SearchText.words(station.name) + SearchText.words(station.brand) + SearchText.words(station.suburb))
            for word in own { own.formUnion(SearchForgiveness.alternatives(of: word)) }
            return own
        }
        vocabulary = Set(perStation.flatMap { $0 }).sorted()
        let position = Dictionary(uniqueKeysWithValues: vocabulary.enumerated().map { ($1, $0) })
        stations = perStation.map { words in words.map { position[$0]! } }
    }

    /// Per slot: the worst, over query words, of the best way one of the station's words starts with it (or, when
    /// no word anywhere does and the query word has five letters or more, is one edit away from it).
    func scan(_ query: [String]) -> [StationSearchIndex.Match] {
        var worst: [StationSearchIndex.Match]?
        for word in Set(query) {
            var each = vocabulary.map { candidate -> StationSearchIndex.Match in
                candidate == word ? .whole : candidate.hasPrefix(word) ? .prefix : .none
            }
            if !each.contains(where: { $0 != .none }), word.utf8.count >= SearchForgiveness.minimumLettersForAnEdit {
                each = vocabulary.map { SearchForgiveness.withinOneEdit($0, word) ? .approximate : .none }
            }
            let best = stations.map { own in own.reduce(StationSearchIndex.Match.none) { max($0, each[$1]) } }
            worst = worst.map { zip($0, best).map { min($0, $1) } } ?? best
        }
        return worst ?? Array(repeating: .none, count: stations.count)
    }
}

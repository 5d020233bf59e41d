/// The words of every station's name, brand and suburb, built once per snapshot: each distinct word once, sorted,
/// with the slots holding it. A query word is a prefix range found by binary search, so `q=bond jun` costs two
/// searches and the matching slots, never a pass over the stations.
public struct StationSearchIndex: Sendable {
    /// How well a station matches `q`: every query word must start a word of the station.
    public enum Match: UInt8, Sendable, Comparable {
        case none = 0
        /// Some query word matches only a word one edit away (`juntion` for `Junction`, `SearchForgiveness`).
        case approximate = 1
        /// Some query word only starts a word (`bond` in `Bondi`).
        case prefix = 2
        /// Every query word is a whole word of the station (`bondi junction`, or `st` for `Saint`).
        case whole = 3

        public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    /// Each distinct word, sorted.
    private let vocabulary: [String]
    /// `postings[postingStart[w]..<postingStart[w + 1]]`: the slots holding `vocabulary[w]`, ascending.
    private let postingStart: [Int32]
    private let postings: [Int32]
    /// Slots per postcode.
    private let postcodes: [String: [Int]]

    public init(snapshot: Snapshot) {
        var pairs: [(word: String, slot: Int32)] = []
        var postcodes: [String: [Int]] = [:]
        for (slot, entry) in snapshot.entries.enumerated() {
            let station = entry.station
            var own = Set(SearchText.words(station.name) + SearchText.words(station.brand) + SearchText.words(station.suburb))
            // `St Kilda` is found as `saint kilda` and `Saint Kilda` as `st kilda`.
            for word in own { own.formUnion(SearchForgiveness.alternatives(of: word)) }
            for word in own { pairs.append((word, Int32(slot))) }
            if let postcode = station.postcode { postcodes[postcode, default: []].append(slot) }
        }
        pairs.sort { $0.word != $1.word ? $0.word < $1.word : $0.slot < $1.slot }
        var vocabulary: [String] = []
        var postingStart: [Int32] = []
        for (position, pair) in pairs.enumerated() where vocabulary.last != pair.word {
            vocabulary.append(pair.word)
            postingStart.append(Int32(position))
        }
        postingStart.append(Int32(pairs.count))
        self.vocabulary = vocabulary
        self.postingStart = postingStart
        postings = pairs.map(\.slot)
        self.postcodes = postcodes
    }

    /// The slots matching all of `query` (words as `SearchText.words` gives them), ascending, with how each matches.
    public func matches(_ query: [String]) -> SearchMatches {
        var result: [(slot: Int32, match: Match)]?
        for word in Set(query) {
            let found = matches(word)
            result = result.map { Self.intersect($0, found) } ?? found
            if result?.isEmpty == true { break }
        }
        return SearchMatches(result ?? [])
    }

    /// Slots whose station has this postcode, in slot order.
    public func slots(inPostcode postcode: String) -> [Int] { postcodes[postcode] ?? [] }

    /// The slots holding a word that starts with `word`, ascending, each `.whole` when one of its words is `word`;
    /// when none does and `word` is long enough, the slots holding a word one edit away (`.approximate`).
    private func matches(_ word: String) -> [(slot: Int32, match: Match)] {
        var found: [(slot: Int32, match: Match)] = []
        var index = lowerBound(word)
        while index < vocabulary.count, vocabulary[index].hasPrefix(word) {
            let match: Match = vocabulary[index] == word ? .whole : .prefix
            for position in Int(postingStart[index])..<Int(postingStart[index + 1]) { found.append((postings[position], match)) }
            index += 1
        }
        if found.isEmpty, word.utf8.count >= SearchForgiveness.minimumLettersForAnEdit {
            for (index, candidate) in vocabulary.enumerated() where SearchForgiveness.withinOneEdit(candidate, word) {
                for position in Int(postingStart[index])..<Int(postingStart[index + 1]) { found.append((postings[position], .approximate)) }
            }
        }
        // A station with several words under the prefix appears once, with its best match.
        found.sort { $0.slot != $1.slot ? $0.slot < $1.slot : $0.match > $1.match }
        var unique: [(slot: Int32, match: Match)] = []
        unique.reserveCapacity(found.count)
        for hit in found where unique.last?.slot != hit.slot { unique.append(hit) }
        return unique
    }

    /// Slots in both, each with the worse of its two matches.
    private static func intersect(
        _ a: [(slot: Int32, match: Match)], _ b: [(slot: Int32, match: Match)]
    ) -> [(slot: Int32, match: Match)] {
        var result: [(slot: Int32, match: Match)] = []
        var i = 0, j = 0
        while i < a.count, j < b.count {
            if a[i].slot < b[j].slot { i += 1 } else if b[j].slot < a[i].slot { j += 1 } else {
                result.append((a[i].slot, min(a[i].match, b[j].match)))
                i += 1
                j += 1
            }
        }
        return result
    }

    private func lowerBound(_ word: String) -> Int {
        var low = 0, high = vocabulary.count
        while low < high {
            let middle = (low + high) / 2
            if vocabulary[middle] < word { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The stations a `q=` matches, ascending by slot: what a query iterates (instead of every station) and looks
/// slots up in when another index chose the candidates.
public struct SearchMatches: Sendable {
    public let slots: [Int32]
    private let levels: [StationSearchIndex.Match]

    init(_ hits: [(slot: Int32, match: StationSearchIndex.Match)]) {
        slots = hits.map(\.slot)
        levels = hits.map(\.match)
    }

    public var count: Int { slots.count }

    /// The match at position `position` of `slots`.
    public func match(at position: Int) -> StationSearchIndex.Match { levels[position] }

    /// How `slot` matches: `.none` when it does not.
    public subscript(slot: Int) -> StationSearchIndex.Match {
        var low = 0, high = slots.count
        while low < high {
            let middle = (low + high) / 2
            if Int(slots[middle]) < slot { low = middle + 1 } else { high = middle }
        }
        return low < slots.count && Int(slots[low]) == slot ? levels[low] : .none
    }
}

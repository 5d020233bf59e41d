/// The words of every station's name, brand and suburb, sorted, built once per snapshot: a query word is a prefix
/// range found by binary search, so `q=bond jun` costs two searches and the matches, never a scan of the stations.
public struct StationSearchIndex: Sendable {
    /// How well a station matches `q`: every query word must start a word of the station.
    public enum Match: UInt8, Sendable, Comparable {
        case none = 0
        /// Some query word only starts a word (`bond` in `Bondi`).
        case prefix = 1
        /// Every query word is a whole word of the station (`bondi junction`).
        case whole = 2

        public static func < (a: Match, b: Match) -> Bool { a.rawValue < b.rawValue }
    }

    /// (word, slot), sorted by word then slot; a station's repeated word appears once.
    private let words: [String]
    private let slots: [Int32]
    /// Slots per postcode.
    private let postcodes: [String: [Int]]
    private let count: Int

    public init(snapshot: Snapshot) {
        var pairs: [(String, Int32)] = []
        var postcodes: [String: [Int]] = [:]
        for (slot, entry) in snapshot.entries.enumerated() {
            let station = entry.station
            let own = Set(SearchText.words(station.name) + SearchText.words(station.brand) + SearchText.words(station.suburb))
            for word in own { pairs.append((word, Int32(slot))) }
            if let postcode = station.postcode { postcodes[postcode, default: []].append(slot) }
        }
        pairs.sort { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }
        words = pairs.map(\.0)
        slots = pairs.map(\.1)
        self.postcodes = postcodes
        count = snapshot.entries.count
    }

    /// Per slot, how it matches all of `query` (words as `SearchText.words` gives them).
    public func matches(_ query: [String]) -> [Match] {
        var result = [Match](repeating: query.isEmpty ? .none : .whole, count: count)
        for word in Set(query) {
            var seen = [Match](repeating: .none, count: count)
            var index = lowerBound(word)
            while index < words.count, words[index].hasPrefix(word) {
                let slot = Int(slots[index])
                seen[slot] = max(seen[slot], words[index] == word ? .whole : .prefix)
                index += 1
            }
            for slot in result.indices where result[slot] != .none { result[slot] = min(result[slot], seen[slot]) }
        }
        return result
    }

    /// Slots whose station has this postcode, in slot order.
    public func slots(inPostcode postcode: String) -> [Int] { postcodes[postcode] ?? [] }

    private func lowerBound(_ word: String) -> Int {
        var low = 0, high = words.count
        while low < high {
            let middle = (low + high) / 2
            if words[middle] < word { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

/// The 400 for a query parameter an endpoint does not declare: it names it, suggests the closest declared one and
/// lists them all. A typo (`fueltype=U91`) must not look like a filter that matched everything. Share pages do not
/// use this: their links arrive carrying `utm_*`, `fbclid` and the like.
struct UnknownParameter: Sendable {
    let operation: String
    let known: [String]

    /// Longer names get no suggestion: nothing declared is that long, and comparing costs time in the name's length.
    static let longestSuggested = 64

    func reason(for unknown: String) -> String {
        let shown = unknown.utf8.count > 40 ? String(unknown.prefix(40)) + "…" : unknown
        var text = "Unknown parameter '\(shown)'"
        if let guess = suggestion(for: unknown) { text += " (did you mean '\(guess)'?)" }
        text += known.isEmpty ? "; \(operation) takes no query parameters" : "; \(operation) takes: \(known.joined(separator: ", "))"
        return text
    }

    /// The declared name a typo most likely meant: the same letters ignoring case, `_` and `-` (`State`;
    /// `fuel_type` is not that, but `fueltype` starts with `fuel`), one a prefix of the other (`radius` →
    /// `radius_km`), or at most two edits away. Compared as ASCII bytes.
    func suggestion(for unknown: String) -> String? {
        guard unknown.utf8.count <= Self.longestSuggested else { return nil }
        let key = Self.folded(unknown)
        guard !key.isEmpty else { return nil }
        let folded = known.map(Self.folded)
        if let same = folded.firstIndex(of: key) { return known[same] }
        var longestPrefixed: Int?
        for (index, name) in folded.enumerated() where name.count >= 3 && key.count >= 3 {
            guard key.starts(with: name) || name.starts(with: key) else { continue }
            if longestPrefixed.map({ folded[$0].count < name.count }) ?? true { longestPrefixed = index }
        }
        if let longestPrefixed { return known[longestPrefixed] }
        var best: (index: Int, distance: Int)?
        for (index, name) in folded.enumerated() {
            let limit = min(best.map { $0.distance - 1 } ?? 2, key.count - 1)
            guard limit >= 0, let distance = Self.editDistance(name, key, atMost: limit) else { continue }
            best = (index, distance)
        }
        return best.map { known[$0.index] }
    }

    /// Lower-cased ASCII bytes without `_` and `-`.
    static func folded(_ name: String) -> [UInt8] {
        name.utf8.compactMap { byte in
            if byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-") { return nil }
            return (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
        }
    }

    /// The Levenshtein distance between `a` and `b` when it is at most `limit`, else nil: lengths further apart
    /// than the limit are refused at once, and a row whose every cell passes the limit ends the search.
    static func editDistance(_ a: [UInt8], _ b: [UInt8], atMost limit: Int) -> Int? {
        guard abs(a.count - b.count) <= limit else { return nil }
        guard !a.isEmpty else { return b.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for (i, x) in a.enumerated() {
            current[0] = i + 1
            var rowMinimum = current[0]
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
                rowMinimum = min(rowMinimum, current[j + 1])
            }
            if rowMinimum > limit { return nil }
            swap(&previous, &current)
        }
        return previous[b.count] <= limit ? previous[b.count] : nil
    }
}

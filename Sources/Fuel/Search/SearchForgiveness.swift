/// How a search forgives: the usual abbreviations of place names stand for their words both ways (`st`/`saint`,
/// `mt`/`mount`, `jnct`/`junction`), and a word of five letters or more that matches nothing as typed matches the
/// indexed words one edit away (`juntion` finds `junction`), ranked after every exact match.
public enum SearchForgiveness {
    /// Words of this many letters or more get one edit.
    public static let minimumLettersForAnEdit = 5

    /// Abbreviation and word, each standing for the other in station text and in queries.
    static let abbreviations: [(short: String, long: String)] = [
        ("st", "saint"), ("mt", "mount"), ("jct", "junction"), ("jnct", "junction"), ("junc", "junction"),
    ]

    /// The other spellings `word` stands for (empty for most words).
    static func alternatives(of word: String) -> [String] {
        var found: [String] = []
        for pair in abbreviations {
            if word == pair.short { found.append(pair.long) } else if word == pair.long { found.append(pair.short) }
        }
        return found
    }

    /// Whether `a` and `b` are at most one insertion, deletion or substitution apart (ASCII bytes; other text
    /// compares by scalars).
    static func withinOneEdit(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard abs(x.count - y.count) <= 1 else { return false }
        var i = 0, j = 0, edits = 0
        while i < x.count, j < y.count {
            if x[i] == y[j] { i += 1; j += 1; continue }
            edits += 1
            if edits > 1 { return false }
            if x.count > y.count { i += 1 } else if y.count > x.count { j += 1 } else { i += 1; j += 1 }
        }
        return edits + (x.count - i) + (y.count - j) <= 1
    }
}

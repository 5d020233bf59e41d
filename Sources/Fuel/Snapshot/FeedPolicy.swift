import Foundation

/// What a single provider feed may change at once. One bad feed (ghost stations, a half list, a row dated 2099, a
/// station "moved" 3,000 km, a 12 MB name) must not poison the data or the merge rules for the feeds after it.
public enum FeedPolicy {
    /// Rows dated later than this past the merge instant are refused: a clock or a typo, never a current price.
    public static let maxFutureSkew: TimeInterval = 3_600
    /// Station names, brands, addresses and suburbs are cut to this many characters.
    public static let maxTextLength = 120
    public static let maxPostcodeLength = 10
    /// A known station whose coordinates move further than this in one feed keeps its old location.
    public static let maxMoveKm = 10.0
    /// Full feeds in a row a station must be missing from before it is removed (a stable majority).
    public static let absencesBeforeRemoval = 3
    /// How long a station must have been missing, as well as from `absencesBeforeRemoval` feeds, before it is
    /// removed: three half lists polled within the hour are one bad spell, not three days of a closed station.
    public static let minimumAbsence: TimeInterval = 24 * 3_600
    /// Feeds in a row that must show a growth beyond `growthAllowed` before it is accepted.
    public static let confirmationsForGrowth = 3
    /// A fuel held at fewer stations than this may vanish from a full feed (a rare fuel its last seller dropped);
    /// at more, a feed pricing it at fewer than half of them is a broken list, not the market.
    public static let minimumStationsForFuelShrink = 20
    /// How far a live full feed's newest price may lag the newest held before the feed is an old copy (a stale
    /// cache, a replayed file): the station that changed last leaving the list moves the newest back, by hours in a
    /// quiet state's night. Below it, no price goes back in time either (`MergeBuilder.keepsNewerPrices`).
    public static let maxFeedRegression: TimeInterval = 6 * 3_600

    /// How many stations the registry has never seen one feed may bring (a station returning under its own id is
    /// never growth).
    public static func growthAllowed(known: Int) -> Int { max(25, known / 4) }

    /// `text` cut to `limit` characters, each control character (tab, newline, escape, ...) made a space.
    static func capped(_ text: String, _ limit: Int) -> String {
        let clean = hasControlCharacters(text) ? String(String.UnicodeScalarView(text.unicodeScalars.map { isControl($0) ? " " : $0 })) : text
        // No text has more characters than UTF-8 bytes: the byte count settles nearly every field without counting.
        return clean.utf8.count <= limit || clean.count <= limit ? clean : String(clean.prefix(limit))
    }

    /// Whether `text` holds a control character (Unicode category Cc), which no station text needs.
    public static func hasControlCharacters(_ text: String) -> Bool {
        // Printable ASCII (nearly every feed's text) needs no look-up of each scalar's category.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return false }
        return text.unicodeScalars.contains(where: isControl)
    }

    private static func isControl(_ scalar: Unicode.Scalar) -> Bool { scalar.properties.generalCategory == .control }
}

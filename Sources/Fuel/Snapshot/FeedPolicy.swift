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
    /// Feeds in a row that must show a growth beyond `growthAllowed` before it is accepted.
    public static let confirmationsForGrowth = 3

    /// How many more stations than `known` one feed may bring.
    public static func growthAllowed(known: Int) -> Int { max(25, known / 4) }

    /// `text` cut to `limit` characters.
    static func capped(_ text: String, _ limit: Int) -> String {
        text.count <= limit ? text : String(text.prefix(limit))
    }
}

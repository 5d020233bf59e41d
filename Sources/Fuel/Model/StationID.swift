/// Our public station id: a small positive integer, assigned once by `StationRegistry` and never reused.
/// It is what `/v1/stations/:id` and share links carry.
public struct StationID: RawRepresentable, Hashable, Comparable, Codable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral
{
    public var rawValue: Int

    public init(rawValue: Int) { self.rawValue = rawValue }
    public init(_ rawValue: Int) { self.rawValue = rawValue }
    public init(integerLiteral value: Int) { self.rawValue = value }

    /// Parses a path segment such as `"42"`; rejects zero, negatives, signs and junk.
    public init?(_ text: Substring) {
        guard !text.isEmpty, text.utf8.count <= 12, text.utf8.allSatisfy({ $0 >= 48 && $0 <= 57 }),
            let value = Int(text), value > 0
        else { return nil }
        self.rawValue = value
    }

    public var description: String { String(rawValue) }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }
    // Codable comes from RawRepresentable: a bare JSON integer, as on the wire and in the saved files.
}

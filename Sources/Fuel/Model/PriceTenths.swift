/// A price in tenths of a cent per litre (189.9 c/L is 1899). Integer so that equality and "within 0.1 c" are exact.
public struct PriceTenths: Hashable, Comparable, Codable, Sendable, CustomStringConvertible {
    public var tenths: Int

    public init(tenths: Int) { self.tenths = tenths }

    /// Rounds cents per litre to the nearest tenth: 225.9 -> 2259, 225 -> 2250. Absurd input (NaN, ±∞, 1e300)
    /// saturates instead of trapping; the merge's plausibility bounds then drop it like any outlier.
    public init(cents: Double) {
        let scaled = (cents * 10).rounded()
        let limit = 1e15
        self.tenths = scaled.isNaN ? 0 : Int(min(max(scaled, -limit), limit))
    }

    public var cents: Double { Double(tenths) / 10 }

    /// "189.9"
    public var description: String {
        let sign = tenths < 0 ? "-" : ""
        let magnitude = abs(tenths)
        return "\(sign)\(magnitude / 10).\(magnitude % 10)"
    }

    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.tenths < rhs.tenths }

    public init(from decoder: Decoder) throws {
        tenths = try decoder.singleValueContainer().decode(Int.self)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(tenths)
    }
}

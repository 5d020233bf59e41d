/// Where the latest daily average sits in the recent price cycle.
public struct Cycle: Hashable, Codable, Sendable {
    public enum Direction: String, Codable, Sendable, CaseIterable {
        case rising, falling, steady
    }

    /// 0 at the window's lowest daily average, 1 at its highest; 0.5 when the window is flat.
    public var position: Double
    public var direction: Direction
    /// Latest average minus the mean of the up to `lookback` points before it, in cents.
    public var change: Double
    /// The window's lowest and highest daily averages, in cents.
    public var low: Double
    public var high: Double

    /// How many earlier points the latest average is compared with.
    public static let lookback = 3
    /// A change within ±0.3 c is `steady`: below what drivers notice, above day-to-day averaging noise.
    public static let steadyWithinCents = 0.3
    /// A window whose averages span less than 0.1 c (the price resolution) is flat.
    public static let flatBelowCents = 0.1

    /// The cycle of a window of daily points, oldest first; nil for an empty window.
    public init?(points: [DailyPoint]) {
        guard let latest = points.last?.average else { return nil }
        let averages = points.map(\.average)
        low = averages.min()!
        high = averages.max()!
        position = high - low < Self.flatBelowCents ? 0.5 : min(1, max(0, (latest - low) / (high - low)))
        let earlier = averages.dropLast().suffix(Self.lookback)
        change = earlier.isEmpty ? 0 : latest - earlier.reduce(0, +) / Double(earlier.count)
        direction = change > Self.steadyWithinCents ? .rising : change < -Self.steadyWithinCents ? .falling : .steady
    }
}

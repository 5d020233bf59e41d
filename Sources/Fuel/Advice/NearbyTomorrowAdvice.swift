import Foundation

/// Advice for a WA point outside Perth (Mandurah, Bunbury, Geraldton...) once tomorrow's prices are published: the
/// stations within `radiusKm` that publish both prices decide, as Perth's metro average does for Perth. No cycle is
/// read there; it is published data, not a forecast.
public struct NearbyTomorrowAdvice: Hashable, Sendable {
    public var fuel: FuelType
    public var verdict: CycleAdvice.Verdict
    public var reason: String
    public var outlook: TomorrowOutlook

    /// Stations this close to the point count as "nearby" (the summary's `near` radius).
    public static let radiusKm = 10.0

    /// nil when no station near `point` has both prices for `fuel`, or when their averages are the same.
    public init?(fuel: FuelType, point: Coordinate, board: TomorrowBoard, snapshot: Snapshot, source: DataSource = .live) {
        guard board.isPublished, point.isValid else { return nil }
        let nearby = board.comparisons.filter { comparison in
            guard comparison.fuel == fuel, let entry = snapshot[comparison.station] else { return false }
            return entry.station.location.isValid && entry.station.location.distanceKm(to: point) <= Self.radiusKm
        }
        guard let outlook = TomorrowOutlook(comparisons: nearby, tradingDay: board.tradingDay), let verdict = outlook.verdict else {
            return nil
        }
        self.fuel = fuel
        self.verdict = verdict
        self.outlook = outlook
        let movement = verdict == .tomorrowCheaper ? "falls" : "rises"
        reason = "Tomorrow's prices are published: the \(fuel.rawValue) average of the \(outlook.stationCount) "
            + "stations within \(Int(Self.radiusKm)) km \(movement) from \(CycleAdvice.cents(outlook.todayAverage)) to "
            + "\(CycleAdvice.cents(outlook.tomorrowAverage)) c/L at 6 am on \(outlook.tradingDay)."
            + (source == .sample ? " Sample data." : "")
    }
}

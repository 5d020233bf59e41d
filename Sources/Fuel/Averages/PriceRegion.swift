/// A part of a state with its own published averages. FuelWatch reports WA as Metro and regional, not as one
/// state-wide mean (most WA sites are country sites, which pull a state mean far above what Perth pays).
public enum PriceRegion: String, Codable, Sendable, CaseIterable, Comparable {
    case metro, regional

    /// The Perth Metropolitan Region, as FuelWatch's "Metro" (defined in `MetroArea.perth`).
    public static var perthMetro: BoundingBox { MetroArea.perth.box }

    /// The states whose averages are also published per region.
    public static let regionalStates: Set<AustralianState> = [.WA]

    /// The region of a station, for states that have regions; nil elsewhere or without valid coordinates.
    public static func of(_ station: Station) -> PriceRegion? {
        guard regionalStates.contains(station.state), station.location.isValid else { return nil }
        return perthMetro.contains(station.location) ? .metro : .regional
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

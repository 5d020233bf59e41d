/// A part of a state with its own published averages. FuelWatch reports WA as Metro and regional, not as one
/// state-wide mean (most WA sites are country sites, which pull a state mean far above what Perth pays).
public enum PriceRegion: String, Codable, Sendable, CaseIterable, Comparable {
    case metro, regional

    /// The Perth Metropolitan Region (FuelWatch's "Metro", StateRegion 98): Two Rocks in the north to Singleton in
    /// the south, the coast to the Darling Scarp (Mundaring, Kalamunda, Armadale) in the east, as one box:
    /// latitude -32.47 ... -31.45, longitude 115.55 ... 116.25. Mandurah (-32.53) is Peel, a country region, as
    /// in FuelWatch. The one definition of Perth metro in the code.
    public static let perthMetro = try! BoundingBox(minLat: -32.47, minLng: 115.55, maxLat: -31.45, maxLng: 116.25)

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

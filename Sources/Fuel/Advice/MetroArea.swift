/// A capital city whose petrol prices move in a retail price cycle (ACCC: Sydney, Melbourne, Brisbane, Adelaide,
/// Perth), as the box its metro area is taken to be. The one definition of each metro area in the code.
///
/// Boxes, not centre + radius or ABS polygons: a city's built-up area is long along its coast (Perth 110 km
/// north-south, 60 km wide), so a circle large enough to reach the ends takes in country towns on the sides, while
/// a box follows the coast and the ranges well enough for an average of hundreds of stations. One containment test
/// per station, no boundary data to ship. Each box keeps out the neighbouring cities that price on their own
/// (Geelong, the Gold and Sunshine Coasts, Wollongong, the Central Coast, Mandurah), so no two boxes overlap.
public enum MetroArea: String, Codable, Sendable, CaseIterable, Comparable {
    case sydney, melbourne, brisbane, adelaide, perth

    public var state: AustralianState {
        switch self {
        case .sydney: .NSW
        case .melbourne: .VIC
        case .brisbane: .QLD
        case .adelaide: .SA
        case .perth: .WA
        }
    }

    /// Display name, e.g. "Sydney".
    public var name: String { rawValue.prefix(1).uppercased() + rawValue.dropFirst() }

    public var box: BoundingBox {
        switch self {
        // Hornsby and Brooklyn to Campbelltown and Helensburgh; Penrith to the coast.
        case .sydney: Self.sydneyBox
        // Craigieburn to Frankston and Mornington; Werribee (west of it Geelong) to the Dandenongs.
        case .melbourne: Self.melbourneBox
        // Caboolture to Logan and Beenleigh (the Gold Coast starts at Coomera, -27.85); Ipswich to Redland Bay.
        case .brisbane: Self.brisbaneBox
        // Gawler to Sellicks Hill's north (Aldinga); the gulf to the Adelaide Hills face.
        case .adelaide: Self.adelaideBox
        // FuelWatch's Perth Metropolitan Region (StateRegion 98): Two Rocks to Singleton, the coast to the Darling
        // Scarp (Mundaring, Kalamunda, Armadale). Mandurah (-32.53) is Peel, a country region, as in FuelWatch.
        case .perth: Self.perthBox
        }
    }

    private static let sydneyBox = try! BoundingBox(minLat: -34.20, minLng: 150.55, maxLat: -33.55, maxLng: 151.35)
    private static let melbourneBox = try! BoundingBox(minLat: -38.35, minLng: 144.55, maxLat: -37.45, maxLng: 145.55)
    private static let brisbaneBox = try! BoundingBox(minLat: -27.75, minLng: 152.75, maxLat: -27.05, maxLng: 153.30)
    private static let adelaideBox = try! BoundingBox(minLat: -35.25, minLng: 138.43, maxLat: -34.55, maxLng: 138.80)
    private static let perthBox = try! BoundingBox(minLat: -32.47, minLng: 115.55, maxLat: -31.45, maxLng: 116.25)

    /// The metro area containing `point`, nil outside all of them (or for an invalid point).
    public static func containing(_ point: Coordinate) -> MetroArea? {
        guard point.isValid else { return nil }
        return allCases.first { $0.box.contains(point) }
    }

    /// The metro area of `station`: inside its box and in its state (a box never reaches over a border, but a
    /// station's state is what its provider says).
    public static func of(_ station: Station) -> MetroArea? {
        guard let area = containing(station.location), area.state == station.state else { return nil }
        return area
    }

    /// The cycling city of a state, if it has one.
    public static func capital(of state: AustralianState) -> MetroArea? {
        allCases.first { $0.state == state }
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}

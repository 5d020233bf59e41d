/// What a corridor search costs, counted as it goes: each station read in a run's box measured against each of
/// the run's legs, plus each strip searched. Past `perRequest` the search stops and the request is refused
/// (`AlongQueryError.routeTooComplex`): a route that folds back on itself (a zig-zag, thousands of points on one
/// spot) within the point and length limits would otherwise cost hundreds of ordinary requests.
public struct CorridorWork: Hashable, Sendable {
    /// Leg measures, the unit: about a nanosecond each in a release build.
    public private(set) var units = 0

    public init() {}

    init(units: Int) { self.units = units }

    /// A strip search (a gallop or a binary search over one strip) in leg measures.
    static let unitsPerStrip = 20
    /// Reading a member and judging it, before any leg is measured.
    static let unitsPerMember = 4

    mutating func add(_ scan: CorridorIndex.Scan, legs: Int) {
        units += scan.members * (legs + Self.unitsPerMember) + scan.strips * Self.unitsPerStrip
    }

    func exceeds(_ budget: CorridorWork) -> Bool { units > budget.units }

    /// What one request may spend. `PettyBench worst` measures the most expensive route within the limits at
    /// this budget against a plain one.
    public static let perRequest = CorridorWork(units: 150_000)
    public static let unlimited = CorridorWork(units: .max)
}

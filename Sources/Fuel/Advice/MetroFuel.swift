/// A (metro area, fuel) pair: the key of metro daily averages and of cycle advice.
public struct MetroFuel: Hashable, Comparable, Codable, Sendable {
    public var city: MetroArea
    public var fuel: FuelType

    public init(_ city: MetroArea, _ fuel: FuelType) {
        self.city = city
        self.fuel = fuel
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.city != rhs.city ? lhs.city < rhs.city : lhs.fuel < rhs.fuel
    }
}

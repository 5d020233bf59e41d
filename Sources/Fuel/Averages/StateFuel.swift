/// A (state, fuel) pair: the key of averages and trend series.
public struct StateFuel: Hashable, Comparable, Codable, Sendable {
    public var state: AustralianState
    public var fuel: FuelType

    public init(_ state: AustralianState, _ fuel: FuelType) {
        self.state = state
        self.fuel = fuel
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        lhs.state != rhs.state ? lhs.state < rhs.state : lhs.fuel < rhs.fuel
    }
}

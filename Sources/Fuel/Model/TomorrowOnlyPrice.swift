/// A published next-day price for a fuel a station has no price for today (WA: a site closed today).
public struct TomorrowOnlyPrice: Hashable, Codable, Sendable {
    public var fuel: FuelType
    public var tomorrow: TomorrowPrice

    public init(fuel: FuelType, tomorrow: TomorrowPrice) {
        self.fuel = fuel
        self.tomorrow = tomorrow
    }
}

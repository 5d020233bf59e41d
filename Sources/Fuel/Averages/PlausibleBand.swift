/// Where a price for one fuel in one state may lie: within `width` of the state's median for the fuel.
///
/// The width is the same number of cents for every fuel of a state: `PricePolicy.implausibleDeviation` of the
/// state's median U91 price, unrounded (VIC's sample: 0.4 × 199.9 = 79.96 c/L). Freight, remoteness and margins add cents per litre, not a share of
/// the price, so a band that is a share of each fuel's own median is too narrow for cheap fuels (it cut real
/// country LPG at 145.9 and 155.9 c/L, 40 % of a 98 c/L median) and too wide for dear ones (it let a 350.0
/// placeholder through as premium diesel). A state without U91 prices uses each fuel's own median.
public struct PlausibleBand: Sendable, Hashable {
    /// Tenths of a cent.
    public let median: Double
    public let width: Double

    public func contains(_ price: PriceTenths) -> Bool {
        abs(Double(price.tenths) - median) <= width
    }

    /// One band per state and fuel from the medians (tenths) of their current prices.
    public static func bands(medians: [StateFuel: Double]) -> [StateFuel: PlausibleBand] {
        var bands: [StateFuel: PlausibleBand] = [:]
        for (key, median) in medians where median > 0 {
            let reference = medians[StateFuel(key.state, .U91)].flatMap { $0 > 0 ? $0 : nil } ?? median
            bands[key] = PlausibleBand(median: median, width: PricePolicy.implausibleDeviation * reference)
        }
        return bands
    }
}

import Foundation

/// A price against the current average for its fuel in its state (`vs_average`): price minus average in cents
/// per litre, negative when cheaper. Unrounded; clients see it to one decimal.
///
/// Only a price that counts is compared: a stale or implausible price is left out of the average it would be
/// compared with, and says nothing about today, so it gets none (like a fuel without an average).
public enum VersusAverage {
    /// Within this many cents of the average a price is "at the average" (half the price resolution).
    public static let atAverageWithinCents = 0.05

    /// A price against one average, and whose average it is (`vs_average_of`): the station's metro area where
    /// its state publishes one (`perth`: a state mean pulls country prices into a Perth comparison), else the
    /// state's code (`WA`, `NSW`).
    public struct Comparison: Hashable, Sendable {
        public var difference: Double
        public var of: String
    }

    public static func difference(_ price: PriceTenths, average: FuelAverage?) -> Double? {
        guard let average else { return nil }
        return price.cents - average.average
    }

    /// The difference rounded to a tenth of a cent, with no negative zero.
    public static func rounded(_ difference: Double) -> Double {
        let value = (difference * 10).rounded() / 10
        return value == 0 ? 0 : value
    }
}

extension FuelIndex {
    /// `fuel`'s price at `slot` minus the average it is compared with (`versusAverageComparison`), or nil.
    public func versusAverage(_ fuel: FuelType, slot: Int) -> Double? {
        versusAverageComparison(fuel, slot: slot)?.difference
    }

    /// `fuel`'s price at `slot` against its metro area's average where its state has one for the fuel (Perth),
    /// else its state's; nil for no price, a price that does not count, or no average.
    public func versusAverageComparison(_ fuel: FuelType, slot: Int) -> VersusAverage.Comparison? {
        guard let tenths = priceTenths(fuel, slot: slot), standing(fuel, slot: slot) == .counts else { return nil }
        let station = snapshot.entries[slot].station
        let price = PriceTenths(tenths: tenths)
        if PriceRegion.of(station) == .metro, let city = MetroArea.capital(of: station.state),
            let difference = VersusAverage.difference(price, average: averages[station.state, fuel, .metro])
        {
            return VersusAverage.Comparison(difference: difference, of: city.rawValue)
        }
        return VersusAverage.difference(price, average: averages[station.state, fuel]).map {
            VersusAverage.Comparison(difference: $0, of: station.state.rawValue)
        }
    }

    /// A fingerprint of `state`'s averages: station JSON rendered against equal averages can be reused.
    public func averagesHash(of state: AustralianState) -> Int {
        var hasher = Hasher()
        for average in averages.averages(in: state) {
            hasher.combine(average.fuel)
            hasher.combine(average.average)
        }
        for average in averages.regional where average.state == state {
            hasher.combine(average.fuel)
            hasher.combine(average.region)
            hasher.combine(average.average)
        }
        return hasher.finalize()
    }
}

import Foundation

/// A price against the current average for its fuel in its state (`vs_average`): price minus average in cents
/// per litre, negative when cheaper. Unrounded; clients see it to one decimal.
///
/// Only a price that counts is compared: a stale or implausible price is left out of the average it would be
/// compared with, and says nothing about today, so it gets none (like a fuel without an average).
public enum VersusAverage {
    /// Within this many cents of the average a price is "at the average" (half the price resolution).
    public static let atAverageWithinCents = 0.05

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
    /// `fuel`'s price at `slot` minus its state's average, or nil (no price, a price that does not count, or no
    /// average for the fuel in the state).
    public func versusAverage(_ fuel: FuelType, slot: Int) -> Double? {
        guard let tenths = priceTenths(fuel, slot: slot), standing(fuel, slot: slot) == .counts else { return nil }
        return VersusAverage.difference(PriceTenths(tenths: tenths), average: averages[snapshot.entries[slot].station.state, fuel])
    }

    /// A fingerprint of `state`'s averages: station JSON rendered against equal averages can be reused.
    public func averagesHash(of state: AustralianState) -> Int {
        var hasher = Hasher()
        for average in averages.averages(in: state) {
            hasher.combine(average.fuel)
            hasher.combine(average.average)
        }
        return hasher.finalize()
    }
}

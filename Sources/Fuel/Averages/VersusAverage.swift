import Foundation

/// A price against the current average for its fuel in its state (`vs_average`): price minus average in cents
/// per litre, negative when cheaper, computed from the figures a client sees: the average as `/v1/averages` serves it
/// (to the hundredth of a cent, halves away from zero), and the difference served to the tenth, halves away from zero.
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

    /// Exact in hundredths of a cent: price minus the served average.
    public static func difference(_ price: PriceTenths, average: FuelAverage?) -> Double? {
        guard let average else { return nil }
        return Double(price.tenths * 10 - servedHundredths(average.average)) / 100
    }

    /// An average as `/v1/averages` serves it, in hundredths of a cent (halves away from zero).
    public static func servedHundredths(_ average: Double) -> Int { Int((average * 100).rounded()) }

    /// A difference as served, in tenths of a cent: from its exact hundredths, halves away from zero (-0.25 is -0.3).
    public static func roundedTenths(_ difference: Double) -> Int {
        let hundredths = Int((difference * 100).rounded())
        let magnitude = (abs(hundredths) + 5) / 10
        return hundredths < 0 ? -magnitude : magnitude
    }

    /// The difference rounded to a tenth of a cent (`roundedTenths`), with no negative zero.
    public static func rounded(_ difference: Double) -> Double {
        let value = Double(roundedTenths(difference)) / 10
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

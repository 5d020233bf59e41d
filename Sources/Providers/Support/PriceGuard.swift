import Fuel

/// Wire prices (cents per litre) to `PriceTenths`, refusing what is not a usable price.
enum PriceGuard {
    /// The largest price an adapter keeps: 100,000 c/L ($1,000 a litre), far above any real or sentinel price
    /// (QLD/SA's 9999 is 999.9 c/L). Anything larger is corrupt, and without a bound `PriceTenths(cents:)` traps
    /// on values past `Int.max / 10` (about 9.2e17), e.g. a `"price": 1e300` row would kill the process.
    static let maxCents = 100_000.0

    /// `cents` as tenths; nil unless it is finite, at most `maxCents` and still positive after rounding to a tenth.
    static func tenths(cents: Double) -> PriceTenths? {
        guard cents.isFinite, cents > 0, cents <= maxCents else { return nil }
        let price = PriceTenths(cents: cents)
        return price.tenths > 0 ? price : nil
    }
}

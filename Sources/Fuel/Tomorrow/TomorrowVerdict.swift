/// "Should you fill up today?" for one station and fuel.
public enum TomorrowVerdict: String, Codable, Sendable, CaseIterable {
    // Raw values are the API's wire names.
    case todayCheaper = "today_cheaper"
    case tomorrowCheaper = "tomorrow_cheaper"
    case same
    /// The station has no price today for this fuel (closed today) but has published tomorrow's.
    case noPriceToday = "no_price_today"

    /// `same` when the prices differ by at most 0.1 c (`PricePolicy.sameWithinTenths`); `noPriceToday` without
    /// a price today.
    public init(today: PriceTenths?, tomorrow: PriceTenths) {
        guard let today else {
            self = .noPriceToday
            return
        }
        let difference = tomorrow.tenths - today.tenths
        if abs(difference) <= PricePolicy.sameWithinTenths {
            self = .same
        } else {
            self = difference > 0 ? .todayCheaper : .tomorrowCheaper
        }
    }
}

extension StationPrice {
    /// The verdict when this price carries a tomorrow price for `tradingDay`, else nil.
    public func verdict(forTradingDay tradingDay: String) -> TomorrowVerdict? {
        guard let tomorrow, tomorrow.day == tradingDay else { return nil }
        return TomorrowVerdict(today: price, tomorrow: tomorrow.price)
    }
}

/// "Should you fill up today?" for one station and fuel.
public enum TomorrowVerdict: String, Codable, Sendable, CaseIterable {
    // Raw values are the API's wire names.
    case todayCheaper = "today_cheaper"
    case tomorrowCheaper = "tomorrow_cheaper"
    case same

    /// `same` when the prices differ by at most 0.1 c (`PricePolicy.sameWithinTenths`).
    public init(today: PriceTenths, tomorrow: PriceTenths) {
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

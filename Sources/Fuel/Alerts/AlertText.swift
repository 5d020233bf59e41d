/// The words of each push, in one place.
public enum AlertText {
    static func below(_ fuel: FuelType, price: PriceTenths, threshold: PriceTenths) -> String {
        "\(fuel.rawValue) is \(price) c/L, at or below your \(threshold)"
    }

    static func moved(_ fuel: FuelType, from: PriceTenths, to: PriceTenths, direction: PriceMoveRule.Direction) -> String {
        let by = PriceTenths(tenths: abs(to.tenths - from.tenths))
        return "\(fuel.rawValue) \(direction == .drop ? "dropped" : "rose") \(by) c/L to \(to) c/L"
    }

    static func cheapestMoved(_ fuel: FuelType, price: PriceTenths, station: String) -> String {
        "Cheapest \(fuel.rawValue) near you is now \(station) at \(price) c/L"
    }

    static func cheapestDropped(_ fuel: FuelType, by: PriceTenths, price: PriceTenths) -> String {
        "Cheapest \(fuel.rawValue) near you dropped \(by) c/L to \(price) c/L"
    }

    /// "U91 rises 12.0 c/L tomorrow: fill up today" / "U91 falls 8.5 c/L tomorrow: wait".
    static func tomorrow(_ fuel: FuelType, today: PriceTenths, tomorrow: PriceTenths) -> String {
        let by = PriceTenths(tenths: abs(tomorrow.tenths - today.tenths))
        return tomorrow > today
            ? "\(fuel.rawValue) rises \(by) c/L tomorrow: fill up today"
            : "\(fuel.rawValue) falls \(by) c/L tomorrow: wait"
    }

    /// A folded burst: "<first> and 4 more".
    public static func folded(_ first: String, more: Int) -> String { "\(first) and \(more) more" }

    /// How many of a summary's decisions are spelled out; the rest are counted, so that a day of a wide `near`
    /// alert in a city still fits one push (APNs and FCM take 4 KB).
    static let summaryItems = 5

    /// A daily summary of several decisions: "12 updates: <first>; ...; <fifth> and 7 more".
    public static func summary(_ messages: [String]) -> String {
        guard messages.count > 1 else { return messages.first ?? "" }
        let more = messages.count - min(messages.count, summaryItems)
        return "\(messages.count) updates: " + messages.prefix(summaryItems).joined(separator: "; ") + (more > 0 ? " and \(more) more" : "")
    }
}

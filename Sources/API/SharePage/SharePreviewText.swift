import Foundation
import Fuel

/// The share page's description, as link previews (og:description, twitter:description) show it:
/// "Fuel prices at Caltex Woolloomooloo, 1 Cowper Wharf Rd, Woolloomooloo NSW 2011, as of 1:30 pm Thu 15 Jan 2026:
/// Unleaded 91 173.9, E10 171.9 ¢/L." A preview is read days later in a chat, so it always carries its date;
/// in WA, while tomorrow's prices are published, it names them too.
struct SharePreviewText {
    /// A preview is cut off after about two lines; the first fuels (the provider's order) are enough.
    static let maximumFuels = 4

    let name: String
    let address: String
    let prices: [StationPrice]
    let asOf: LocalTime?
    let isSample: Bool
    /// Prices on the page that do not count (stale or implausible): left out of the preview, which says how many.
    let leftOut: Int

    /// `prices`: the station's prices that count.
    init(name: String, address: String, prices: [StationPrice], asOf: LocalTime?, isSample: Bool, leftOut: Int = 0) {
        self.name = name
        self.address = address
        self.prices = prices
        self.asOf = asOf
        self.isSample = isSample
        self.leftOut = leftOut
    }

    /// `tomorrow`: "Tomorrow, Fri 16 Jan: Unleaded 91 169.9 ¢/L." when it should be named.
    func text(tomorrow: String?) -> String {
        var text = "Fuel prices at \(name), \(address)"
        if let asOf { text += ", as of \(asOf.clock) \(asOf.longDate)" }
        if prices.isEmpty {
            text += leftOut > 0 ? ": no current price." : ": none reported."
        } else {
            text += ": " + Self.list(prices.map { ($0.fuel, $0.price) }) + "."
        }
        if leftOut > 0 { text += " \(leftOut) more on the page, out of date or not real prices." }
        if let tomorrow { text += " " + tomorrow }
        if isSample { text += " Sample data, not live prices." }
        return text
    }

    /// "Unleaded 91 173.9, E10 171.9 ¢/L", "…, Premium 98 196.9 ¢/L, and 3 more fuels"
    static func list(_ prices: [(FuelType, PriceTenths)]) -> String {
        let shown = prices.prefix(maximumFuels).map { "\($0.0.displayName) \($0.1)" }
        let more = prices.count - shown.count
        return shown.joined(separator: ", ") + " ¢/L" + (more > 0 ? ", and \(more) more fuel\(more == 1 ? "" : "s")" : "")
    }
}

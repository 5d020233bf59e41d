import Foundation
import Fuel

extension StationSharePage {
    /// `section.tomorrow` for a WA station holding tomorrow's prices, and the sentence link previews add
    /// ("Tomorrow, Thu 23 Apr: Unleaded 91 185.9 ¢/L."), shown from `from` (publication) until `until`
    /// (their trading day starts).
    struct TomorrowSection {
        let html: [UInt8]
        let summary: String
        let from: Double
        let until: Double
    }

    /// Nil when the station holds no tomorrow prices.
    static func tomorrowSection(_ entry: StationEntry) -> TomorrowSection? {
        guard TomorrowController.publishingStates.contains(entry.station.state) else { return nil }
        // All of a station's tomorrow prices are for the same trading day; should they differ, the latest wins.
        guard let day = entry.prices.compactMap({ $0.tomorrow?.day }).max(), let tradingDay = CalendarDay(day) else { return nil }
        let prices = entry.prices.filter { $0.tomorrow?.day == day }
        let date = LocalTime(WATradingDay.start(of: tradingDay), in: WATradingDay.zone)

        var html = HTMLWriter(capacity: 512 + prices.count * 200)
        html.raw("<section class=\"tomorrow\">\n<h2>Tomorrow’s prices</h2>\n<table class=\"prices\">\n<caption>")
        html.trusted("Prices for \(date.longDate) in cents per litre")
        html.raw("</caption>\n")
        for price in prices {
            guard let tomorrow = price.tomorrow else { continue }
            html.raw("<tr><th scope=\"row\">")
            html.text(price.fuel.displayName)
            html.raw("</th><td class=\"price\">")
            html.price(tomorrow.price)
            html.raw("</td><td class=\"updated\">today ")
            html.price(price.price)
            html.raw("</td></tr>\n")
        }
        html.raw("</table>\n")
        for price in prices {
            guard let tomorrow = price.tomorrow else { continue }
            let verdict = TomorrowVerdict(today: price.price, tomorrow: tomorrow.price)
            html.raw("<p><span class=\"verdict ")
            html.trusted(verdict.rawValue)
            html.raw("\">")
            html.text(verdictText(verdict, fuel: prices.count > 1 ? price.fuel : nil, today: price.price, tomorrow: tomorrow.price))
            html.raw("</span></p>\n")
        }
        html.raw("</section>\n")
        let listed = prices.compactMap { price in price.tomorrow.map { (price.fuel, $0.price) } }
        return TomorrowSection(
            html: html.bytes, summary: "Tomorrow, \(date.dayDate): \(SharePreviewText.list(listed)).",
            from: WATradingDay.publicationInstant(forTradingDay: tradingDay).timeIntervalSince1970,
            until: WATradingDay.start(of: tradingDay).timeIntervalSince1970)
    }

    /// "Fill up today: 3.0 ¢/L cheaper than tomorrow" (a no-break space before ¢/L); with several fuels, "Diesel: fill up today, ...".
    static func verdictText(_ verdict: TomorrowVerdict, fuel: FuelType?, today: PriceTenths, tomorrow: PriceTenths) -> String {
        let difference = PriceTenths(tenths: abs(tomorrow.tenths - today.tenths))
        let (headline, detail): (String, String) = switch verdict {
        case .todayCheaper: ("Fill up today", "\(difference)\u{00A0}¢/L cheaper than tomorrow")
        case .tomorrowCheaper: ("Wait for tomorrow", "\(difference)\u{00A0}¢/L cheaper than today")
        case .same: ("Same price tomorrow", difference.tenths == 0 ? "no change" : "within \(difference)\u{00A0}¢/L")
        }
        guard let fuel else { return "\(headline): \(detail)" }
        return "\(fuel.displayName): \(headline.prefix(1).lowercased())\(headline.dropFirst()), \(detail)"
    }
}

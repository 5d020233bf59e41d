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
        let all = entry.prices.compactMap { price in price.tomorrow.map { (fuel: price.fuel, today: Optional(price.price), tomorrow: $0) } }
            + entry.tomorrowOnly.map { (fuel: $0.fuel, today: PriceTenths?.none, tomorrow: $0.tomorrow) }
        guard let day = all.map(\.tomorrow.day).max(), let tradingDay = CalendarDay(day) else { return nil }
        let rows = FuelType.allCases.compactMap { fuel in all.first { $0.fuel == fuel && $0.tomorrow.day == day } }
        let date = LocalTime(WATradingDay.start(of: tradingDay), in: WATradingDay.zone)

        var html = HTMLWriter(capacity: 512 + rows.count * 200)
        html.raw("<section class=\"tomorrow\">\n<h2>Tomorrow’s prices</h2>\n<table class=\"prices\">\n<caption>")
        html.trusted("Prices for \(date.longDate) in cents per litre")
        html.raw("</caption>\n")
        for row in rows {
            html.raw("<tr><th scope=\"row\">")
            html.text(row.fuel.displayName)
            html.raw("</th><td class=\"price\">")
            html.price(row.tomorrow.price)
            html.raw("</td><td class=\"updated\">")
            if let today = row.today {
                html.raw("today ")
                html.price(today)
            } else {
                html.raw("no price today")
            }
            html.raw("</td></tr>\n")
        }
        html.raw("</table>\n")
        for row in rows {
            let verdict = TomorrowVerdict(today: row.today, tomorrow: row.tomorrow.price)
            html.raw("<p><span class=\"verdict ")
            html.trusted(verdict.rawValue)
            html.raw("\">")
            html.text(verdictText(verdict, fuel: rows.count > 1 ? row.fuel : nil, today: row.today, tomorrow: row.tomorrow.price))
            html.raw("</span></p>\n")
        }
        html.raw("</section>\n")
        let listed = rows.map { ($0.fuel, $0.tomorrow.price) }
        return TomorrowSection(
            html: html.bytes, summary: "Tomorrow, \(date.dayDate): \(SharePreviewText.list(listed)).",
            from: WATradingDay.publicationInstant(forTradingDay: tradingDay).timeIntervalSince1970,
            until: WATradingDay.start(of: tradingDay).timeIntervalSince1970)
    }

    /// "Fill up today: 3.0 ¢/L cheaper than tomorrow" (a no-break space before ¢/L); with several fuels, "Diesel: fill up today, ...".
    static func verdictText(_ verdict: TomorrowVerdict, fuel: FuelType?, today: PriceTenths?, tomorrow: PriceTenths) -> String {
        let difference = PriceTenths(tenths: abs(tomorrow.tenths - (today ?? tomorrow).tenths))
        let (headline, detail): (String, String) = switch verdict {
        case .noPriceToday: ("No price today", "tomorrow \(tomorrow)\u{00A0}¢/L")
        case .todayCheaper: ("Fill up today", "\(difference)\u{00A0}¢/L cheaper than tomorrow")
        case .tomorrowCheaper: ("Wait for tomorrow", "\(difference)\u{00A0}¢/L cheaper than today")
        case .same: ("Same price tomorrow", difference.tenths == 0 ? "no change" : "within \(difference)\u{00A0}¢/L")
        }
        guard let fuel else { return "\(headline): \(detail)" }
        return "\(fuel.displayName): \(headline.prefix(1).lowercased())\(headline.dropFirst()), \(detail)"
    }
}

import Foundation
import Fuel

extension StationSharePage {
    /// Renders every part of `entry`'s page that does not depend on the request.
    /// `status` is the station's provider as of the snapshot (data age, sample or live); `versus` is each fuel's
    /// price against its state's average (`FuelIndex.versusAverage`).
    static func build(
        entry: StationEntry, status: ProviderStatus?, appStoreID: String?, versus: (FuelType) -> Double? = { _ in nil }
    ) -> StationSharePage {
        let station = entry.station
        let zone = station.state.zone
        let name = station.name.isEmpty ? (station.brand.isEmpty ? "Station \(station.id)" : station.brand) : station.name
        let address = addressLine(station)
        let cheapest = entry.prices.min { $0.price != $1.price ? $0.price < $1.price : $0.fuel < $1.fuel }
        let description = describe(name: name, address: address, cheapest: cheapest, count: entry.prices.count)

        var head = HTMLWriter(capacity: 1024)
        head.raw(PageChrome.documentStart)
        head.raw("<title>")
        head.text(name)
        head.raw(": fuel prices · Petty</title>\n<meta name=\"description\" content=\"")
        head.text(description)
        head.raw("\">\n<meta property=\"og:type\" content=\"website\">\n<meta property=\"og:site_name\" content=\"Petty\">\n")
        head.raw("<meta property=\"og:title\" content=\"")
        head.text(name)
        head.raw(": fuel prices\">\n<meta property=\"og:description\" content=\"")
        head.text(description)
        head.raw("\">\n")

        var cards = HTMLWriter(capacity: 512)
        cards.raw("<meta name=\"twitter:card\" content=\"summary_large_image\">\n<meta name=\"twitter:title\" content=\"")
        cards.text(name)
        cards.raw(": fuel prices\">\n<meta name=\"twitter:description\" content=\"")
        cards.text(description)
        cards.raw("\">\n")

        let appID = appStoreID.flatMap { id -> [UInt8]? in
            guard !id.isEmpty else { return nil }
            var writer = HTMLWriter(capacity: 32)
            writer.raw("app-id=")
            writer.text(id)
            return writer.bytes
        }

        var before = HTMLWriter(capacity: 1024)
        before.raw(PageChrome.headEnd)
        before.raw("<main class=\"station\">\n<h1>")
        before.text(name)
        before.raw("</h1>\n")
        if !station.brand.isEmpty {
            before.raw("<p class=\"brand\">")
            before.text(station.brand)
            before.raw("</p>\n")
        }
        before.raw("<p class=\"address\">")
        before.text(address)
        before.raw("</p>\n")
        if entry.prices.isEmpty {
            before.raw("<p>This station reports no current prices.</p>\n")
        } else {
            before.raw("<table class=\"prices\">\n<caption>Prices in cents per litre</caption>\n")
        }

        // "updated 14 Jan" names the year too when it is not the year of the provider's data ("21 Sep 2023").
        let dataYear = status?.asOf.map { LocalTime($0, in: zone).year }
        let rows = entry.prices.map { price in
            let local = LocalTime(price.updatedAt, in: zone)
            let otherDay = dataYear == nil || dataYear == local.year ? local.shortDate : "\(local.shortDate) \(local.year)"
            var start = HTMLWriter(capacity: 128)
            start.raw("<tr><th scope=\"row\">")
            start.text(price.fuel.displayName)
            start.raw("</th><td class=\"price\">")
            start.price(price.price)
            start.raw("</td><td class=\"updated\">")
            return Row(
                start: start.bytes, sameDay: Array("updated \(local.clock)".utf8), otherDay: Array("updated \(otherDay)".utf8),
                dayStart: local.dayStart, dayEnd: local.dayEnd)
        }

        var after = HTMLWriter(capacity: 256)
        if !entry.prices.isEmpty { after.raw("</table>\n") }
        if let cheapest, entry.prices.count > 1 {
            after.raw("<p class=\"cheapest\">Cheapest here: ")
            after.text(cheapest.fuel.displayName)
            after.raw(" at ")
            after.price(cheapest.price)
            after.raw("&nbsp;¢/L</p>\n")
        }
        let comparisons = entry.prices.compactMap { price in versus(price.fuel).map { (price.fuel, $0) } }
        if !comparisons.isEmpty {
            after.raw("<ul class=\"versus\">\n")
            for (fuel, difference) in comparisons {
                after.raw("<li>")
                after.text("\(fuel.displayName): \(versusWords(difference, state: station.state))")
                after.raw("</li>\n")
            }
            after.raw("</ul>\n")
        }

        var tail = HTMLWriter(capacity: 1024)
        if station.location.isValid, !(station.location.latitude == 0 && station.location.longitude == 0) {
            tail.raw("<p><a class=\"directions\" href=\"https://www.google.com/maps/dir/?api=1&amp;destination=")
            tail.coordinate(station.location.latitude)
            tail.raw(",")
            tail.coordinate(station.location.longitude)
            tail.raw("\">Directions</a></p>\n")
        }
        writeAge(status: status, provider: station.provider, zone: zone, into: &tail)
        PageChrome.writeEnd(provider: station.provider, into: &tail)

        return StationSharePage(
            id: station.id, head: head.bytes, cards: cards.bytes, appID: appID, beforeRows: before.bytes, rows: rows,
            afterRows: after.bytes, tomorrow: tomorrowSection(entry), tail: tail.bytes)
    }

    /// "307-313 Ocean Beach Road, Umina Beach NSW 2257" (the suburb only when the address lacks it).
    static func addressLine(_ station: Station) -> String {
        var parts: [String] = []
        let street = station.address.trimmingCharacters(in: .whitespaces)
        if !street.isEmpty { parts.append(street) }
        var locality = station.suburb.trimmingCharacters(in: .whitespaces)
        if !locality.isEmpty, street.range(of: locality, options: .caseInsensitive) != nil { locality = "" }
        locality += (locality.isEmpty ? "" : " ") + station.state.rawValue
        if let postcode = station.postcode, !postcode.isEmpty { locality += " " + postcode }
        parts.append(locality)
        return parts.joined(separator: ", ")
    }

    /// "4.2 c/L below the NSW average", "1.0 c/L above the NSW average", "at the NSW average" (within ±0.05).
    static func versusWords(_ difference: Double, state: AustralianState) -> String {
        guard abs(difference) >= VersusAverage.atAverageWithinCents else { return "at the \(state.rawValue) average" }
        let amount = PriceTenths(cents: abs(difference))
        return "\(amount) c/L \(difference < 0 ? "below" : "above") the \(state.rawValue) average"
    }

    /// For `description` and the link preview cards.
    static func describe(name: String, address: String, cheapest: StationPrice?, count: Int) -> String {
        var text = "Current fuel prices at \(name), \(address)."
        if let cheapest {
            text += count > 1 ? " Cheapest: " : " "
            text += "\(cheapest.fuel.displayName) \(cheapest.price) ¢/L."
        }
        return text
    }

    /// `p.age`: "Prices as of 2:35 pm AEDT, Wed 14 Jan 2026." plus VIC's delay and the sample-data notice.
    static func writeAge(status: ProviderStatus?, provider: ProviderID, zone: TimeZone, into html: inout HTMLWriter) {
        html.raw("<p class=\"age\">")
        if let asOf = status?.asOf {
            let local = LocalTime(asOf, in: zone)
            html.trusted("Prices as of \(local.clock) \(local.zoneAbbreviation), \(local.longDate).")
        } else {
            html.raw("Prices as last reported by the provider.")
        }
        if StationEncoding.delayHours[provider] != nil {
            html.raw(" Victorian prices are published a day late, so they may be out of date.")
        }
        if status?.source == .sample {
            html.raw(" This is sample data recorded from the provider, not live prices.")
        }
        html.raw("</p>\n")
    }
}

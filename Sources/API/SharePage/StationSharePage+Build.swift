import Foundation
import Fuel

extension StationSharePage {
    /// Renders every part of `entry`'s page that does not depend on the request.
    /// `status` is the station's provider as of the snapshot (data age, sample or live); `versus` is each fuel's
    /// price against its metro area's or state's average (`FuelIndex.versusAverageComparison`); `standing` is the
    /// snapshot's judgement of each price (`PriceJudge`: a stale price says so); `openInApp` is where the
    /// "Open in Petty" link points (the station's public URL, which App Links and universal links hand to the app).
    static func build(
        entry: StationEntry, status: ProviderStatus?, appStoreID: String?, openInApp: PublicURL? = nil,
        standing: (StationPrice) -> PriceStanding = { _ in [] },
        versus: (FuelType) -> VersusAverage.Comparison? = { _ in nil }
    ) -> StationSharePage {
        let station = entry.station
        let zone = station.state.zone
        let name = station.name.isEmpty ? (station.brand.isEmpty ? "Station \(station.id)" : station.brand) : station.name
        let address = addressLine(station)
        let asOf = (status?.asOf ?? entry.prices.map(\.updatedAt).max()).map { LocalTime($0, in: zone) }
        let isSample = status?.source == .sample
        // A price older than the window reads as old whether or not a full feed still lists it (NSW); one that does not
        // count is left out of the preview, which is read without the page's notes.
        let window = status?.asOf.map { $0.addingTimeInterval(-PricePolicy.currentMaxAge) }
        let judged = entry.prices.map { price -> (price: StationPrice, standing: PriceStanding, old: Bool) in
            let standing = standing(price)
            return (price, standing, standing.contains(.stale) || window.map { price.updatedAt < $0 } == true)
        }
        let summary = SharePreviewText(
            name: name, address: address, prices: judged.filter { $0.standing == .counts }.map(\.price), asOf: asOf, isSample: isSample,
            leftOut: judged.count(where: { $0.standing != .counts }))

        let appID = appStoreID.flatMap { id -> [UInt8]? in
            guard !id.isEmpty else { return nil }
            var writer = HTMLWriter(capacity: 32)
            writer.raw("app-id=")
            writer.text(id)
            return writer.bytes
        }

        var body = HTMLWriter(capacity: 1024 + entry.prices.count * 160)
        body.raw(PageChrome.headEnd)
        body.raw("<main class=\"station\">\n<h1>")
        body.text(name)
        body.raw("</h1>\n")
        if !station.brand.isEmpty {
            body.raw("<p class=\"brand\">")
            body.text(station.brand)
            body.raw("</p>\n")
        }
        body.raw("<p class=\"address\">")
        body.text(address)
        body.raw("</p>\n")
        if isSample { writeSampleNotice(asOf: asOf, into: &body) }
        if status?.staleSince != nil, let asOf { writeQuietNotice(lastRefresh: asOf, into: &body) }
        if entry.prices.isEmpty {
            body.raw("<p>This station reports no current prices.</p>\n")
        } else {
            body.raw("<table class=\"prices\">\n<caption>Prices in cents per litre</caption>\n")
            for (price, standing, old) in judged {
                body.raw("<tr><th scope=\"row\">")
                body.text(price.fuel.displayName)
                if standing.contains(.implausible) {
                    body.raw("</th><td class=\"price implausible\"><s>")
                    body.price(price.price)
                    body.raw("</s></td><td class=\"updated implausible\">")
                    body.trusted(implausibleText)
                } else if old {
                    body.raw("</th><td class=\"price\">")
                    body.price(price.price)
                    body.raw("</td><td class=\"updated stale\">")
                    body.trusted(staleText(price.updatedAt, zone: zone))
                } else {
                    body.raw("</th><td class=\"price\">")
                    body.price(price.price)
                    body.raw("</td><td class=\"updated\">updated ")
                    body.trusted(updatedText(price.updatedAt, zone: zone, dataYear: asOf?.year))
                }
                body.raw("</td></tr>\n")
            }
            body.raw("</table>\n")
        }
        // How each price compares with its area, fuel by fuel (a station's cheapest fuel says nothing about its prices).
        let comparisons = entry.prices.compactMap { price in versus(price.fuel).map { (price.fuel, $0) } }
        if !comparisons.isEmpty {
            body.raw("<ul class=\"versus\">\n")
            for (fuel, difference) in comparisons {
                body.raw("<li>")
                body.text("\(fuel.displayName): \(versusWords(difference.difference, of: difference.of))")
                body.raw("</li>\n")
            }
            body.raw("</ul>\n")
        }

        var tail = HTMLWriter(capacity: 1024)
        writeDirections(to: station.location, into: &tail)
        if let openInApp { writeOpenInApp(openInApp, id: station.id, into: &tail) }
        writeAge(asOf: asOf, provider: station.provider, into: &tail)
        PageChrome.writeEnd(provider: station.provider, into: &tail)

        let tomorrow = tomorrowSection(entry).map { section in
            Tomorrow(
                section: section.html, preview: preview(name: name, description: summary.text(tomorrow: section.summary)),
                from: section.from, until: section.until)
        }
        return StationSharePage(
            id: station.id, preview: preview(name: name, description: summary.text(tomorrow: nil)), appID: appID,
            body: body.bytes, tomorrow: tomorrow, tail: tail.bytes)
    }

    /// The head from `<!DOCTYPE html>` to `og:description`, and the twitter card tags.
    static func preview(name: String, description: String) -> Preview {
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
        return Preview(head: head.bytes, cards: cards.bytes)
    }

    /// "2:35 pm Wed 14 Jan", with the year when it is not the year of the provider's data ("2:35 pm Sun 21 Sep 2025").
    static func updatedText(_ instant: Date, zone: TimeZone, dataYear: Int?) -> String {
        let local = LocalTime(instant, in: zone)
        let text = "\(local.clock) \(local.dayDate)"
        return dataYear == nil || dataYear == local.year ? text : "\(text) \(local.year)"
    }

    /// "last reported 21 Sep 2023, may be out of date": a price set more than `PricePolicy.currentWithinDays` before its
    /// provider's data (even one a full feed still lists), or `stale` for any reason, dated in the station's state.
    static func staleText(_ instant: Date, zone: TimeZone) -> String {
        let local = LocalTime(instant, in: zone)
        return "last reported \(local.shortDate) \(local.year), may be out of date"
    }

    /// What a price flagged `implausible` (a placeholder such as 350.0, or a typo) reads instead of its time.
    static let implausibleText = "not a real price (a placeholder or typo the station reported), left out of averages"

    /// `p.open-app`: the station's own public URL; with the app installed, App Links / universal links open it there.
    static func writeOpenInApp(_ base: PublicURL, id: StationID, into html: inout HTMLWriter) {
        html.raw("<p class=\"open-app\"><a class=\"open-app\" href=\"")
        html.raw(base.html)
        html.raw("/stations/")
        html.int(id.rawValue)
        html.raw("\">Open in Petty</a></p>\n")
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
        versusWords(difference, of: state.rawValue)
    }

    /// The same against `of` (`vs_average_of`): a state code, or a metro area ("the Perth average").
    static func versusWords(_ difference: Double, of: String) -> String {
        let name = MetroArea(rawValue: of)?.name ?? of
        guard abs(difference) >= VersusAverage.atAverageWithinCents else { return "at the \(name) average" }
        let amount = PriceTenths(cents: abs(difference))
        return "\(amount) c/L \(difference < 0 ? "below" : "above") the \(name) average"
    }

    /// `p.notice`, above the prices, so nobody mistakes a recording for today's prices.
    static func writeSampleNotice(asOf: LocalTime?, into html: inout HTMLWriter) {
        html.raw("<p class=\"notice\"><strong>Sample data:</strong> ")
        if let asOf {
            html.trusted("these prices were recorded from the provider on \(asOf.longDate); they are not live prices.")
        } else {
            html.raw("these prices were recorded from the provider; they are not live prices.")
        }
        html.raw("</p>\n")
    }

    /// `p.notice` for a provider quiet for longer than its limit (`QuietProviders`): every price here is stale.
    static func writeQuietNotice(lastRefresh: LocalTime, into html: inout HTMLWriter) {
        html.raw("<p class=\"notice stale\"><strong>Out of date:</strong> ")
        html.trusted("no new prices have come from this state's provider since \(lastRefresh.clock) \(lastRefresh.longDate); these prices may no longer hold.")
        html.raw("</p>\n")
    }

    /// Apple Maps and Google Maps directions to the station; nothing for a station without a usable location.
    static func writeDirections(to location: Coordinate, into html: inout HTMLWriter) {
        guard location.isValid, !(location.latitude == 0 && location.longitude == 0) else { return }
        html.raw("<p class=\"directions\"><a class=\"directions\" href=\"https://maps.apple.com/?daddr=")
        html.coordinate(location.latitude)
        html.raw(",")
        html.coordinate(location.longitude)
        html.raw("&amp;dirflg=d\">Directions in Apple Maps</a>\n")
        html.raw("<a class=\"directions\" href=\"https://www.google.com/maps/dir/?api=1&amp;destination=")
        html.coordinate(location.latitude)
        html.raw(",")
        html.coordinate(location.longitude)
        html.raw("\">Directions in Google Maps</a></p>\n")
    }

    /// `p.age`: "Prices as of 2:35 pm AEDT, Wed 14 Jan 2026." plus VIC's delay.
    static func writeAge(asOf: LocalTime?, provider: ProviderID, into html: inout HTMLWriter) {
        html.raw("<p class=\"age\">")
        if let asOf {
            html.trusted("Prices as of \(asOf.clock) \(asOf.zoneAbbreviation), \(asOf.longDate).")
        } else {
            html.raw("Prices as last reported by the provider.")
        }
        if HistoryDay.dataDelay[provider] != nil {
            html.raw(" Victorian prices are published a day late, so they may be out of date.")
        }
        html.raw("</p>\n")
    }
}

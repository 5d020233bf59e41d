import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite("Share page: GET /stations/:id")
struct SharePageTests {
    typealias F = SharePageFixtures

    @Test func rendersTheStationWithItsPricesDirectionsAgeAndAttribution() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let entry = try require(AppTestSupport.sampleDataset.snapshot[StationID(1)])
        let response = try app.test(.GET, "/stations/1", headers: F.browserAccept)
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
        let html = response.bodyString
        #expect(html.hasPrefix("<!DOCTYPE html>\n<html lang=\"en-AU\">"))
        #expect(html.contains("<header class=\"site\"><a href=\"/\"><img src=\"/favicon.svg\" alt=\"\" width=\"32\" height=\"32\">Petty</a></header>"))
        #expect(html.contains("<main class=\"station\">\n<h1>United Petroleum Umina</h1>"))
        #expect(html.contains("<p class=\"brand\">United</p>"))
        #expect(html.contains("<p class=\"address\">307-313 Ocean Beach Road, Umina Beach NSW 2257</p>"))
        #expect(html.contains("<table class=\"prices\">\n<caption>Prices in cents per litre</caption>"))
        let u91 = try require(entry.price(of: .U91))
        #expect(html.contains("<tr><th scope=\"row\">Unleaded 91</th><td class=\"price\">\(u91.price)</td><td class=\"updated\">updated "))
        #expect(!html.contains("Cheapest here"))
        let lat = entry.station.location.latitude, lng = entry.station.location.longitude
        #expect(html.contains("<p class=\"directions\"><a class=\"directions\" href=\"https://maps.apple.com/?daddr=\(lat),\(lng)&amp;dirflg=d\">Directions in Apple Maps</a>\n"))
        #expect(html.contains("<a class=\"directions\" href=\"https://www.google.com/maps/dir/?api=1&amp;destination=\(lat),\(lng)\">Directions in Google Maps</a></p>"))
        #expect(html.contains("<p class=\"age\">Prices as of 1:30 pm AEDT, Thu 15 Jan 2026.</p>"))
        #expect(html.contains("<footer class=\"site\">\n<p>Fuel price data: NSW FuelCheck data © State of New South Wales.</p>"))
        #expect(html.contains("<a href=\"/\">Petty: Australian fuel prices</a>"))
        #expect(!html.contains("<script"))
        #expect(!html.contains("section class=\"tomorrow\""))
    }

    /// `dataset`: the whole sample, or, where only the page's links and tags are checked, the sample cut to 50
    /// stations per provider (station 1 included; a fraction of the build).
    static func app(
        publicURL: String?, appStoreID: String? = nil, android: AndroidAppLink? = nil, dataset: Dataset = AppTestSupport.sampleDataset
    ) throws -> Application {
        var config = AppTestSupport.config()
        config.publicURL = try publicURL.map { try PublicURL(validating: $0) }
        config.appStoreID = appStoreID
        config.android = android
        return try buildApplication(config, logger: AppTestSupport.quietLogger(), dataset: dataset).app
    }

    /// Each configuration's app, built once: they only answer requests, and only their links and tags are checked.
    static let pettyExample = Result { try app(publicURL: "https://petty.example", dataset: FollowerHarness.good) }
    /// Configured with the fingerprint in lower case: assetlinks.json must still name it in upper case.
    static let withAndroid = Result {
        try app(
            publicURL: "https://petty.example", android: AndroidAppLink(package: "au.petty.app", fingerprints: fingerprint.lowercased()),
            dataset: FollowerHarness.good)
    }

    static let fingerprint = (0..<32).map { String(format: "%02X", $0 * 11 % 256) }.joined(separator: ":")

    @Test func linkPreviewTagsUseTheConfiguredPublicURL() throws {
        let app = try Self.app(publicURL: "https://petty.example:8443/")
        let html = try app.test(.GET, "/stations/1", headers: ["Host": "evil.example", "X-Forwarded-Proto": "http"]).bodyString
        #expect(html.contains("<title>United Petroleum Umina: fuel prices · Petty</title>"))
        #expect(html.contains("<meta name=\"description\" content=\"Fuel prices at United Petroleum Umina, 307-313 Ocean Beach Road, Umina Beach NSW 2257, as of 1:30 pm Thu 15 Jan 2026: Unleaded 91 173.9, E10 171.9, Premium 95 187.9, Premium 98 196.9 ¢/L, and 3 more fuels. Sample data, not live prices.\">"))
        #expect(html.contains("<meta property=\"og:type\" content=\"website\">"))
        #expect(html.contains("<meta property=\"og:site_name\" content=\"Petty\">"))
        #expect(html.contains("<meta property=\"og:title\" content=\"United Petroleum Umina: fuel prices\">"))
        #expect(html.contains("<meta property=\"og:description\" content=\"Fuel prices at United Petroleum Umina, 307-313 Ocean Beach Road, Umina Beach NSW 2257, as of 1:30 pm Thu 15 Jan 2026: "))
        #expect(html.contains("<meta property=\"og:url\" content=\"https://petty.example:8443/stations/1\">"))
        #expect(html.contains("<meta property=\"og:image\" content=\"https://petty.example:8443/og-image.png\">"))
        #expect(html.contains("<meta name=\"twitter:card\" content=\"summary_large_image\">"))
        #expect(html.contains("<meta name=\"twitter:title\" content=\"United Petroleum Umina: fuel prices\">"))
        #expect(html.contains("<meta name=\"twitter:description\" content=\"Fuel prices at United Petroleum Umina, 307-313 Ocean Beach Road, Umina Beach NSW 2257, as of 1:30 pm Thu 15 Jan 2026: "))
        #expect(!html.contains("apple-itunes-app"))

        #expect(!html.contains("evil.example"))
        #expect(!html.contains("Open in Petty"), "no app is configured")

        // Unconfigured: the listen address, whatever the Host header says.
        var config = AppTestSupport.config()
        config.hostname = "10.0.0.7"
        config.port = 8081
        let plain = try buildApplication(config, logger: AppTestSupport.quietLogger(), dataset: FollowerHarness.good).app
            .test(.GET, "/stations/1", headers: ["Host": "[::1]:8080", "X-Forwarded-Proto": "https"]).bodyString
        #expect(plain.contains("<meta property=\"og:url\" content=\"http://10.0.0.7:8081/stations/1\">"))
    }

    // Whatever the Host, the page (and so its ETag and what shared caches keep) is the same bytes.
    @Test(arguments: ["evil.example", "evil_example", "x!y", "a'b", "a%2Fb", "a;b=c"])
    func theHostHeaderNeverReachesThePage(host: String) throws {
        let app = try Self.pettyExample.get()
        let response = try app.test(.GET, "/stations/1", headers: ["Host": host])
        let reference = try app.test(.GET, "/stations/1", headers: ["Host": "petty.example"])
        #expect(response.status == .ok)
        #expect(response.body == reference.body)
        #expect(response.headers.first(name: "ETag") == reference.headers.first(name: "ETag"))
        #expect(response.bodyString.contains("<meta property=\"og:url\" content=\"https://petty.example/stations/1\">"))
        #expect(!response.bodyString.contains(host))
    }

    // Invalid Host syntax never reaches the page: the HTTP parser answers 400 (RFC 9112 §3.2).
    @Test(arguments: ["evil.example/<x>", "a b", "evil\"onload=\"x", "[::1", "x@y"])
    func anInvalidHostIsRefusedBeforeThePage(host: String) throws {
        let app = try AppTestSupport.sharedSampleApp()
        let response = try app.test(.GET, "/stations/1", headers: ["Host": host])
        #expect(response.status == .badRequest)
        #expect(!response.bodyString.contains(host))
    }

    @Test func theAppBannerAndOpenInPettyAppearOnlyWithAnApp() throws {
        let app = try Self.app(publicURL: "https://petty.example", appStoreID: "123456789", dataset: FollowerHarness.good)
        let html = try app.test(.GET, "/stations/1", headers: ["Host": "other.example"]).bodyString
        #expect(html.contains("<meta name=\"apple-itunes-app\" content=\"app-id=123456789, app-argument=https://petty.example/stations/1\">"))
        #expect(html.contains("<p class=\"open-app\"><a class=\"open-app\" href=\"https://petty.example/stations/1\">Open in Petty</a></p>"))

        let android = try Self.withAndroid.get()
        let androidHTML = try android.test(.GET, "/stations/1").bodyString
        #expect(!androidHTML.contains("apple-itunes-app"))
        #expect(androidHTML.contains("<a class=\"open-app\" href=\"https://petty.example/stations/1\">Open in Petty</a>"))

        let plain = try AppTestSupport.sharedSampleApp().test(.GET, "/stations/1").bodyString
        #expect(!plain.contains("apple-itunes-app"))
        #expect(!plain.contains("Open in Petty"))
    }

    @Test func assetLinksNameTheAndroidPackageAndCertificateLikeTheAppleFile() throws {
        let app = try Self.withAndroid.get()
        let response = try app.test(.GET, "/.well-known/assetlinks.json")
        #expect(response.status == .ok)
        #expect(response.headers.first(name: "Content-Type") == "application/json")
        #expect(response.headers.first(name: "Cache-Control") == "public, max-age=3600")
        let statements = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [[String: Any]])
        #expect(statements.count == 1)
        #expect(statements[0]["relation"] as? [String] == ["delegate_permission/common.handle_all_urls"])
        let target = try #require(statements[0]["target"] as? [String: Any])
        #expect(target["namespace"] as? String == "android_app")
        #expect(target["package_name"] as? String == "au.petty.app")
        #expect(target["sha256_cert_fingerprints"] as? [String] == [Self.fingerprint])
        let etag = try #require(response.headers.first(name: "ETag"))
        #expect(try app.test(.GET, "/.well-known/assetlinks.json", headers: ["If-None-Match": etag]).status == .notModified)

        let unconfigured = try AppTestSupport.sharedSampleApp().test(.GET, "/.well-known/assetlinks.json")
        #expect(unconfigured.status == .notFound)
    }

    // PriceJudge's rule: stale when set more than 30 days (PricePolicy.currentWithinDays) before the provider's as-of.
    @Test func aPriceOlderThanTheStaleThresholdSaysItMayBeOutOfDate() throws {
        let asOf = F.instant("2026-01-14T03:35:00Z")  // 2:35 pm AEDT, Wed 14 Jan 2026
        let cutoff = asOf.addingTimeInterval(-PricePolicy.currentMaxAge)  // 2:35 pm AEDT, Mon 15 Dec 2025
        let dataset = F.dataset(
            .qld, stations: [F.record(.qld, "1", name: "Brisbane Fuel", state: .QLD)],
            prices: [("1", .U91, 1899, cutoff), ("1", .E85, 2199, cutoff.addingTimeInterval(-1)), ("1", .E10, 1799, F.instant("2023-09-20T14:30:00Z"))],
            asOf: asOf)
        let html = try AppTestSupport.app(with: dataset, clock: { asOf }).test(.GET, "/stations/1").bodyString
        #expect(html.contains("<td class=\"price\">189.9</td><td class=\"updated\">updated 1:35 pm Mon 15 Dec 2025</td>"))
        #expect(html.contains("<th scope=\"row\">E85</th><td class=\"price\">219.9</td><td class=\"updated stale\">last reported 15 Dec 2025, may be out of date</td>"))
        // 14:30 UTC on 20 Sep is 00:30 on the 21st in Brisbane (AEST, no daylight saving): the state's date.
        #expect(html.contains("<td class=\"price\">179.9</td><td class=\"updated stale\">last reported 21 Sep 2023, may be out of date</td>"))
    }

    @Test func aWAStationShowsTomorrowsPricesAndTheVerdict() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let entry = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .WA && $0.prices.contains { $0.tomorrow != nil } })
        let html = try app.test(.GET, "/stations/\(entry.id)", headers: F.browserAccept).bodyString
        let section = try require(F.element("section class=\"tomorrow\"", in: html), "no tomorrow section")
        #expect(section.contains("<h2>"))
        #expect(section.contains("<caption>Prices for Thu 23 Apr 2026 in cents per litre</caption>"))
        for price in entry.prices {
            let tomorrow = try require(price.tomorrow)
            let verdict = TomorrowVerdict(today: price.price, tomorrow: tomorrow.price)
            #expect(section.contains("<tr><th scope=\"row\">\(price.fuel.displayName)</th><td class=\"price\">\(tomorrow.price)</td><td class=\"updated\">today \(price.price)</td></tr>"))
            #expect(section.contains("<p><span class=\"verdict \(verdict.rawValue)\">\(price.fuel.displayName): "))
        }
        #expect(html.contains("FuelWatch data © Government of Western Australia"))
        #expect(html.contains("Prices as of 6:00 am AWST, Wed 22 Apr 2026."))
    }

    @Test func tomorrowsPricesShowOnlyFromPublicationUntilTheTradingDayStarts() throws {
        // WA: prices set 06:00 WST on Wed 22 Apr 2026; tomorrow's (Thu 23 Apr) published 14:30 WST on the 22nd.
        let asOf = F.instant("2026-04-21T22:00:00Z")
        let dataset = F.dataset(
            .wa, stations: [F.record(.wa, "1", name: "Perth Fuel", state: .WA)],
            prices: [("1", .U91, 1879, asOf)], tomorrow: [("1", .U91, 1849, "2026-04-23")], asOf: asOf)
        let cases: [(String, Bool)] = [
            ("2026-04-22T06:29:00Z", false),  // 14:29 WST: not yet published
            ("2026-04-22T06:30:00Z", true),  // 14:30 WST
            ("2026-04-22T21:59:00Z", true),  // 05:59 WST on the 23rd
            ("2026-04-22T22:00:00Z", false),  // 06:00 WST: tomorrow is today now
        ]
        for (now, shown) in cases {
            let app = try AppTestSupport.app(with: dataset, clock: { F.instant(now) })
            let html = try app.test(.GET, "/stations/1").bodyString
            #expect(html.contains("<section class=\"tomorrow\">") == shown, "at \(now)")
            // The link preview names tomorrow's price exactly while the section shows.
            let tomorrowSentence = " Tomorrow, Thu 23 Apr: Unleaded 91 184.9 ¢/L."
            #expect(html.contains("<meta property=\"og:description\" content=\"Fuel prices at Perth Fuel, 1 Main St, Town WA 2000, as of 6:00 am Wed 22 Apr 2026: Unleaded 91 187.9 ¢/L.\(shown ? tomorrowSentence : "")\">"), "at \(now)")
            #expect(html.contains("<meta name=\"twitter:description\" content=\"Fuel prices at Perth Fuel") && html.contains(tomorrowSentence) == shown, "at \(now)")
            if shown {
                #expect(html.contains("<p><span class=\"verdict today_cheaper\">") == false)
                #expect(html.contains("<p><span class=\"verdict tomorrow_cheaper\">Wait for tomorrow: 3.0\u{00A0}¢/L cheaper than today</span></p>"))
            }
        }
    }

    // A shared link is read days later: a bare "2:35 pm" would lie the next morning, so every time has its date.
    @Test func everyUpdateTimeCarriesItsDateOnBothSidesOfLocalMidnight() throws {
        let set = F.instant("2026-01-14T03:35:00Z")  // 2:35 pm AEDT, Wed 14 Jan
        let old = F.instant("2025-09-21T02:35:00Z")
        let dataset = F.dataset(
            .nsw, stations: [F.record(.nsw, "1", name: "Sydney Fuel", state: .NSW)],
            prices: [("1", .U91, 1899, set), ("1", .E10, 1879, old)], asOf: set)
        for now in ["2026-01-14T12:59:00Z", "2026-01-14T13:00:00Z"] {  // 11:59 pm and 00:00 AEDT
            let html = try AppTestSupport.app(with: dataset, clock: { F.instant(now) }).test(.GET, "/stations/1").bodyString
            #expect(html.contains("<td class=\"price\">189.9</td><td class=\"updated\">updated 2:35 pm Wed 14 Jan</td>"), "at \(now)")
            // Older than the window: it reads as old even though NSW's full feed lists it (issue 48 §2), and still counts.
            #expect(html.contains("<td class=\"price\">187.9</td><td class=\"updated stale\">last reported 21 Sep 2025, may be out of date</td>"), "at \(now)")
            #expect(html.contains("<p class=\"age\">Prices as of 2:35 pm AEDT, Wed 14 Jan 2026.</p>"), "at \(now)")
            #expect(html.contains("content=\"Fuel prices at Sydney Fuel, 1 Main St, Town NSW 2000, as of 2:35 pm Wed 14 Jan 2026: Unleaded 91 189.9, E10 187.9 ¢/L.\""), "at \(now)")
            #expect(!html.contains("Cheapest here"))
            #expect(!html.contains("Sample data"))
        }
    }

    @Test func theSampleNoticeSitsAboveThePrices() throws {
        let html = try AppTestSupport.sharedSampleApp().test(.GET, "/stations/1").bodyString
        let notice = try require(html.range(of: "<p class=\"notice\"><strong>Sample data:</strong> these prices were recorded from the provider on Thu 15 Jan 2026; they are not live prices.</p>"))
        let table = try require(html.range(of: "<table class=\"prices\">"))
        let address = try require(html.range(of: "<p class=\"address\">"))
        #expect(address.upperBound < notice.lowerBound)
        #expect(notice.upperBound < table.lowerBound)
        #expect(html.contains("Sample data, not live prices.\">"))
    }

    @Test func aVictorianStationSaysItsPricesArePublishedADayLate() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let entry = try require(AppTestSupport.sampleDataset.snapshot.entries.first { $0.station.state == .VIC })
        let html = try app.test(.GET, "/stations/\(entry.id)").bodyString
        #expect(html.contains("published a day late"))
        #expect(html.contains("© State of Victoria accessed via the Victorian Government Service Victoria Platform (CC BY 4.0)"))
        #expect(html.contains(" AEST, "))
    }

    @Test func providerTextIsEscapedEverywhere() throws {
        let hostile = "<script>alert(1)</script> & \"Bob's\" 🚗 東京"
        let escaped = "&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Bob&#39;s&quot; 🚗 東京"
        let asOf = F.instant("2026-01-14T03:35:00Z")
        let dataset = F.dataset(
            .nsw,
            stations: [F.record(.nsw, "1", name: hostile, brand: "<img src=x onerror=alert(2)>", address: "1 \"Quoted\" St' <b>", suburb: "Ünïcode & Co", state: .NSW)],
            prices: [("1", .U91, 1899, asOf), ("1", .DL, 1999, asOf)], asOf: asOf)
        let app = try AppTestSupport.app(with: dataset, clock: { asOf })
        let html = try app.test(.GET, "/stations/1", headers: F.browserAccept).bodyString
        #expect(!html.contains("<script"))
        #expect(!html.contains("<img src=x"))
        #expect(!html.contains("<b>"))
        #expect(html.contains("<title>\(escaped): fuel prices · Petty</title>"))
        #expect(html.contains("<h1>\(escaped)</h1>"))
        #expect(html.contains("<meta property=\"og:title\" content=\"\(escaped): fuel prices\">"))
        #expect(html.contains("<meta name=\"twitter:title\" content=\"\(escaped): fuel prices\">"))
        #expect(html.contains("<meta name=\"description\" content=\"Fuel prices at \(escaped), 1 &quot;Quoted&quot; St&#39; &lt;b&gt;, Ünïcode &amp; Co NSW 2000, as of "))
        #expect(html.contains("<p class=\"brand\">&lt;img src=x onerror=alert(2)&gt;</p>"))
        // Every attribute value stays inside its quotes: no raw quote from the provider survives.
        #expect(!html.contains("\"Bob"))
        #expect(!html.contains("Bob's"))
    }

    @Test func theJSONRepresentationIsTheV1StationBytes() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let v1 = try app.test(.GET, "/v1/stations/1")
        for accept in ["application/json", "application/json, text/plain, */*", "text/html;q=0.5, application/json", "application/*"] {
            let response = try app.test(.GET, "/stations/1", headers: ["Accept": accept])
            #expect(response.status == .ok, "\(accept)")
            #expect(response.body == v1.body, "\(accept)")
            #expect(response.headers.first(name: "ETag") == v1.headers.first(name: "ETag"))
            #expect(response.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
            #expect(response.headers["Vary"].contains { $0.contains("Accept,") || $0 == "Accept" })
        }
        for accept: String? in [nil, "*/*", "text/html", F.browserAccept.first(name: "Accept")!, "application/json;q=0.5, text/html", "application/json, text/html", "image/png"] {
            let headers: HTTPHeaders = accept.map { ["Accept": $0] } ?? [:]
            let response = try app.test(.GET, "/stations/1", headers: headers)
            #expect(response.headers.first(name: "Content-Type") == "text/html; charset=utf-8", "\(accept ?? "no Accept")")
            #expect(response.headers.first(name: "Vary") == "Accept, Accept-Encoding")
        }
        // /v1 stays JSON whatever the Accept.
        let v1Browser = try app.test(.GET, "/v1/stations/1", headers: F.browserAccept)
        #expect(v1Browser.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
    }

    @Test(arguments: ["abc", "0", "999999", "-1", "1.5", "%3Cscript%3E"])
    func anUnknownStationIsAFriendly404(id: String) throws {
        let app = try AppTestSupport.sharedSampleApp()
        let page = try app.test(.GET, "/stations/\(id)", headers: F.browserAccept)
        #expect(page.status == .notFound)
        #expect(page.headers.first(name: "Content-Type") == "text/html; charset=utf-8")
        #expect(page.headers.first(name: "Content-Security-Policy") == PageChrome.contentSecurityPolicy)
        #expect(page.headers.first(name: "Vary") == "Accept, Accept-Encoding")
        let html = page.bodyString
        #expect(html.contains("<meta name=\"robots\" content=\"noindex\">"))
        #expect(html.contains("<header class=\"site\">"))
        #expect(html.contains("<main class=\"notfound\">\n<h1>Station not found</h1>\n<p>"))
        #expect(html.contains("<a href=\"/\">"))
        #expect(html.contains("<footer class=\"site\">"))
        #expect(!html.contains("<script"))

        let json = try app.test(.GET, "/stations/\(id)", headers: F.jsonAccept)
        #expect(json.status == .notFound)
        #expect(json.headers.first(name: "Content-Type") == "application/json; charset=utf-8")
        #expect(json.headers.first(name: "Vary") == "Accept, Accept-Encoding")
        let object = try AppTestSupport.json(json)
        #expect(object["error"] as? Bool == true)
        #expect((object["reason"] as? String)?.isEmpty == false)
    }

    @Test func securityAndCachingHeadersAndConditionalRequests() throws {
        let app = try AppTestSupport.sharedSampleApp()
        let response = try app.test(.GET, "/stations/1", headers: F.browserAccept)
        #expect(response.headers.first(name: "Content-Security-Policy")
            == "default-src 'none'; style-src 'self'; img-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'")
        #expect(response.headers.first(name: "X-Content-Type-Options") == "nosniff")
        #expect(response.headers.first(name: "Referrer-Policy") == "strict-origin-when-cross-origin")
        #expect(response.headers.first(name: "Cache-Control") == "public, max-age=60")
        let v1 = try app.test(.GET, "/v1/stations/1")
        #expect(response.headers.first(name: "Last-Modified") == v1.headers.first(name: "Last-Modified"))
        let etag = try require(response.headers.first(name: "ETag"))
        #expect(etag != v1.headers.first(name: "ETag"), "HTML and JSON are different representations")

        let again = try app.test(.GET, "/stations/1", headers: F.browserAccept)
        #expect(again.body == response.body)
        #expect(again.headers.first(name: "ETag") == etag)

        let otherHost = try app.test(.GET, "/stations/1", headers: ["Host": "other.example"])
        #expect(otherHost.headers.first(name: "ETag") == etag, "the Host header is not part of the page")

        let notModified = try app.test(.GET, "/stations/1", headers: ["If-None-Match": etag])
        #expect(notModified.status == .notModified)
        #expect(notModified.body.isEmpty)
        #expect(notModified.headers.first(name: "ETag") == etag)
        #expect(notModified.headers.first(name: "Vary") == "Accept, Accept-Encoding")

        let head = try app.test(.HEAD, "/stations/1")
        #expect(head.status == .ok)
        #expect(head.body.isEmpty)
        #expect(head.headers.first(name: "ETag") == etag)
    }
}

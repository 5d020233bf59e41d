import Foundation
import Fuel
import HTTP
import Testing
@testable import API
@testable import App

@Suite("Share page parts: local times, Accept, origin")
struct SharePagePartsTests {
    func local(_ iso: String, _ state: AustralianState) -> LocalTime {
        LocalTime(SharePageFixtures.instant(iso), in: state.zone)
    }

    @Test func localTimesUseTheStationsZoneAndAustralianAbbreviations() {
        let sydney = local("2026-01-14T03:35:00Z", .NSW)
        #expect(sydney.clock == "2:35 pm")
        #expect(sydney.zoneAbbreviation == "AEDT")
        #expect(sydney.longDate == "Wed 14 Jan 2026")
        #expect(sydney.shortDate == "14 Jan")
        #expect(local("2026-01-14T03:35:00Z", .WA).clock == "11:35 am")
        #expect(local("2026-01-14T03:35:00Z", .WA).zoneAbbreviation == "AWST")
        #expect(local("2026-01-14T03:35:00Z", .QLD).zoneAbbreviation == "AEST")
        #expect(local("2026-01-14T03:35:00Z", .SA).zoneAbbreviation == "ACDT")
        #expect(local("2026-07-14T03:35:00Z", .SA).zoneAbbreviation == "ACST")
        #expect(local("2026-07-14T03:35:00Z", .VIC).zoneAbbreviation == "AEST")
        #expect(local("2026-01-14T03:35:00Z", .TAS).zoneAbbreviation == "AEDT")
        #expect(local("2026-01-14T03:35:00Z", .NT).zoneAbbreviation == "ACST")
        #expect(local("2026-01-14T13:05:00Z", .NSW).clock == "12:05 am")
        #expect(local("2026-01-14T01:00:00Z", .NSW).clock == "12:00 pm")
        #expect(local("2026-01-14T13:05:00Z", .NSW).longDate == "Thu 15 Jan 2026")
    }

    @Test func theLocalDayIsBoundedByLocalMidnights() {
        let time = local("2026-01-14T03:35:00Z", .NSW)
        #expect(time.dayStart == SharePageFixtures.instant("2026-01-13T13:00:00Z").timeIntervalSince1970)
        #expect(time.dayEnd == SharePageFixtures.instant("2026-01-14T13:00:00Z").timeIntervalSince1970)
        // The day DST ends in Sydney (5 Apr 2026) is 25 hours long.
        let autumn = local("2026-04-05T03:00:00Z", .NSW)
        #expect(autumn.dayEnd - autumn.dayStart == 25 * 3_600)
    }

    @Test(arguments: [
        (nil, MediaPreference.html), ("*/*", .html), ("text/html", .html),
        ("text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8", .html),
        ("application/json", .json), ("Application/JSON; charset=utf-8", .json), ("application/json, text/plain, */*", .json),
        ("text/html;q=0.9, application/json", .json), ("application/json;q=0.9, text/html", .html),
        ("application/json;q=0, */*", .html), ("application/*", .json), ("application/json, text/html", .html),
        ("image/png", .html), ("garbage", .html), ("application/json;q=2", .html), ("text/*;q=0.1, application/json;q=0.2", .json),
    ] as [(String?, MediaPreference)])
    func acceptChoosesJSONOnlyWhenItIsPreferred(accept: String?, expected: MediaPreference) {
        #expect(MediaPreference(accept: accept.map { [$0] } ?? []) == expected)
    }

    @Test func thePublicURLIsAnAbsoluteHTTPURLWithoutQuery() throws {
        #expect(try PublicURL(validating: "https://petty.example").description == "https://petty.example")
        #expect(try PublicURL(validating: "https://petty.example:8443/").description == "https://petty.example:8443")
        #expect(try PublicURL(validating: "http://example.com/petty/").description == "http://example.com/petty")
        for bad in ["", "petty.example", "/stations", "ftp://petty.example", "javascript:alert(1)", "https://", "https://a.example/?x=1",
                    "https://a.example/#top", "https://user:pw@a.example", "https:///path"] {
            #expect(throws: PublicURL.Invalid.self, "\(bad)") { try PublicURL(validating: bad) }
        }
        #expect(PublicURL(listenHost: "127.0.0.1", port: 8080).description == "http://127.0.0.1:8080")
        #expect(PublicURL(listenHost: "::1", port: 80).description == "http://[::1]:80")
    }

    @Test func androidFingerprintsAreThirtyTwoHexBytesAndThePackageAnApplicationID() throws {
        let pairs = (0..<32).map { String(format: "%02x", $0 * 7 % 256) }.joined(separator: ":")
        let app = try AndroidAppLink(package: "au.petty.app", fingerprints: pairs + ", " + pairs.uppercased())
        #expect(app.fingerprints == [pairs.uppercased(), pairs.uppercased()])
        for bad in ["", String(pairs.dropLast(3)), pairs + ":00", pairs.replacingOccurrences(of: ":", with: ""), "G" + pairs.dropFirst()] {
            #expect(throws: AndroidAppLink.Invalid.self, "\(bad)") { try AndroidAppLink(package: "au.petty.app", fingerprints: bad) }
        }
        for bad in ["petty", "au..app", "1au.petty", "au.petty-app", "au.petty.app\"x"] {
            #expect(throws: AndroidAppLink.Invalid.self, "\(bad)") { try AndroidAppLink(package: bad, fingerprints: pairs) }
        }
    }

    @Test func verdictsSayWhichDayIsCheaperAndByHowMuch() {
        let nbsp = "\u{00A0}"
        func text(_ today: Int, _ tomorrow: Int, fuel: FuelType? = nil) -> String {
            let (t, m) = (PriceTenths(tenths: today), PriceTenths(tenths: tomorrow))
            return StationSharePage.verdictText(TomorrowVerdict(today: t, tomorrow: m), fuel: fuel, today: t, tomorrow: m)
        }
        #expect(text(1849, 1879) == "Fill up today: 3.0\(nbsp)¢/L cheaper than tomorrow")
        #expect(text(1879, 1849) == "Wait for tomorrow: 3.0\(nbsp)¢/L cheaper than today")
        #expect(text(1879, 1879) == "Same price tomorrow: no change")
        #expect(text(1879, 1880) == "Same price tomorrow: within 0.1\(nbsp)¢/L")
        #expect(text(1849, 1879, fuel: .DL) == "Diesel: fill up today, 3.0\(nbsp)¢/L cheaper than tomorrow")
    }

    @Test func theWriterEscapesEveryCharacterThatMatters() {
        var html = HTMLWriter()
        html.text("<a href='x'>\"&\"</a>\u{0}\u{7}\tok 東京")
        #expect(String(decoding: html.bytes, as: UTF8.self) == "&lt;a href=&#39;x&#39;&gt;&quot;&amp;&quot;&lt;/a&gt; ok 東京")
    }
}

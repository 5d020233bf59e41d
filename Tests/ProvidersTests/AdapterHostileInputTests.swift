import Foundation
import Fuel
import Testing
@testable import Providers

/// Inputs the libFuzzer targets in `Fuzz/` found crashing (or breaking an adapter invariant), reduced to a few
/// lines each. Each price case is skipped before `PriceTenths(cents:)`, which would trap on it ("Double value cannot
/// be converted to Int because the result would be greater than Int.max") and take the whole process down.
@Suite struct AdapterHostileInputTests {
    private let fetchedAt = Fixture.fetchedAt

    private func data(_ text: String) -> Data { Data(text.utf8) }

    // MARK: Prices beyond Int range, and prices that round to zero

    @Test func nswPriceBeyondIntRangeIsSkippedNotTrapped() throws {
        let body = """
            {"stations":[{"brand":"United","code":"972","name":"United Umina","address":"307 Ocean Beach Road, UMINA BEACH NSW 2257",
              "location":{"latitude":-33.5,"longitude":151.3}}],
             "prices":[{"stationcode":"972","fueltype":"U91","price":1e300,"lastupdated":"15/01/2026 02:30:53"},
                       {"stationcode":"972","fueltype":"E10","price":0.01,"lastupdated":"15/01/2026 02:30:53"},
                       {"stationcode":"972","fueltype":"P98","price":219.9,"lastupdated":"15/01/2026 02:30:53"}]}
            """
        let nsw = try #require(try NSWFuelCheckAdapter.adapt(data(body), fetchedAt: fetchedAt).first)
        #expect(nsw.update.prices.map(\.price) == [PriceTenths(tenths: 2199)])
        #expect(nsw.tally[.unavailablePrice] == 2)
    }

    /// A coordinate no map can hold (1e300 traps the map's grid) from NSW, adapted and merged: a known station
    /// keeps its last good location and takes its new price; a new one is left out, with its prices.
    @Test func nswStationOffTheGlobeKeepsItsKnownLocationOrIsLeftOut() throws {
        func feed(_ latitude: String, price: String, extra: String = "") -> Data {
            data("""
                {"stations":[{"brand":"United","code":"972","name":"United Umina","address":"307 Ocean Beach Road, UMINA BEACH NSW 2257",
                  "location":{"latitude":\(latitude),"longitude":151.3}}\(extra)],
                 "prices":[{"stationcode":"972","fueltype":"U91","price":\(price),"lastupdated":"15/01/2026 02:30:53"},
                           {"stationcode":"973","fueltype":"U91","price":191.9,"lastupdated":"15/01/2026 02:30:53"}]}
                """)
        }
        let first = try #require(try NSWFuelCheckAdapter.adapt(feed("-33.5", price: "189.9"), fetchedAt: fetchedAt).first)
        let known = Snapshot.empty.merging(first.update, registry: StationRegistry(), at: fetchedAt)
        let broken = #",{"brand":"Ampol","code":"973","name":"Ampol Woy Woy","address":"1 Blackwall Road, WOY WOY NSW 2256","location":{"latitude":1e300,"longitude":151.3}}"#
        let second = try #require(try NSWFuelCheckAdapter.adapt(feed("1e300", price: "185.9", extra: broken), fetchedAt: fetchedAt).first)
        let merged = known.snapshot.merging(second.update, registry: known.registry, at: fetchedAt)
        #expect(merged.report.isApplied && merged.report.heldMoves == 1)
        #expect(merged.snapshot.entries.map(\.station.key.sourceID) == ["972"], "the new station off the globe is left out")
        let umina = try #require(merged.snapshot.entries.first)
        #expect(umina.station.location == Coordinate(latitude: -33.5, longitude: 151.3))
        #expect(umina.price(of: .U91)?.price == PriceTenths(tenths: 1_859))
    }

    @Test func fairFuelPriceBeyondIntRangeIsSkippedNotTrapped() throws {
        let body = """
            {"fuelPriceDetails":[{"fuelStation":{"id":"a","name":"X","address":"85 Burnt Creek Drive, Bungalally, 3401",
              "location":{"latitude":-36.7,"longitude":142.2}},
              "fuelPrices":[{"fuelType":"DSL","isAvailable":true,"price":1e300,"updatedAt":"2026-08-20T20:00:00Z"},
                            {"fuelType":"U91","isAvailable":true,"price":"99999999999999999999","updatedAt":"2026-08-20T20:00:00Z"},
                            {"fuelType":"P98","isAvailable":true,"price":0.04,"updatedAt":"2026-08-20T20:00:00Z"}],
              "updatedAt":"2026-08-20T20:00:00Z"}]}
            """
        let adapted = try FairFuelAdapter.adapt(data(body), fetchedAt: fetchedAt)
        #expect(adapted.update.prices.isEmpty)
        #expect(adapted.tally[.unavailablePrice] == 3)
    }

    @Test func fuelWatchSitesPriceBeyondIntRangeIsSkippedNotTrapped() throws {
        let body = """
            [{"id":1855,"siteName":"Atlas","address":{"line1":"472 Great Eastern Hwy","location":"ASCOT","postCode":6104,
              "latitude":-31.9,"longitude":115.9},"product":{"shortName":"DSL","priceToday":1e300,"priceTomorrow":"1e300"},
              "brandName":"ATL"}]
            """
        let adapted = try FuelWatchSitesAdapter.adapt(data(body), fetchedAt: fetchedAt)
        #expect(adapted.update.stations.count == 1)
        #expect(adapted.update.prices.isEmpty)
        #expect(adapted.update.tomorrow.isEmpty)
        #expect(adapted.tally[.unavailablePrice] == 1)
    }

    private func rss(price: String, date: String = "2019-11-03") -> Data {
        data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <rss version="2.0"><channel><item><price>\(price)</price><date>\(date)</date>
            <trading-name>United Byford</trading-name><latitude>-32.2154436</latitude><longitude>116.0080304</longitude>
            </item></channel></rss>
            """)
    }

    @Test func fuelWatchRSSPriceBeyondIntRangeIsSkippedNotTrapped() throws {
        for day in [FuelWatchDay.today, .tomorrow] {
            let adapted = try FuelWatchRSSAdapter.adapt(rss(price: "1e300"), product: .unleaded, day: day, fetchedAt: fetchedAt)
            #expect(adapted.update.stations.count == 1)
            #expect(adapted.update.prices.isEmpty && adapted.update.tomorrow.isEmpty)
            #expect(adapted.tally[.unavailablePrice] == 1)
        }
    }

    @Test func informedSourcesPriceBeyondIntRangeOrRoundingToZeroIsSkipped() throws {
        let station = StationRecord(
            key: StationKey(provider: .qld, sourceID: "61401007"), name: "X", brand: "", address: "", suburb: "",
            state: .QLD, postcode: nil, location: Coordinate(latitude: -27.4, longitude: 153.0))
        let body = """
            {"SitePrices":[{"SiteId":61401007,"FuelId":2,"TransactionDateUtc":"2021-01-06T22:55:00","Price":1e300},
                           {"SiteId":61401007,"FuelId":12,"TransactionDateUtc":"2021-01-06T22:55:00","Price":0.04},
                           {"SiteId":61401007,"FuelId":5,"TransactionDateUtc":"2021-01-06T22:55:00","Price":1959}]}
            """
        let adapted = try InformedSourcesAdapter.prices(data(body), region: .qld, stations: [station], fetchedAt: fetchedAt)
        #expect(adapted.update.prices.map(\.price) == [PriceTenths(tenths: 1959)])
        #expect(adapted.tally[.unavailablePrice] == 2)
    }

    @Test func priceGuardKeepsOnlyPositiveBoundedPrices() {
        #expect(PriceGuard.tenths(cents: 189.94) == PriceTenths(tenths: 1899))
        #expect(PriceGuard.tenths(cents: PriceGuard.maxCents) == PriceTenths(tenths: 1_000_000))
        #expect(PriceGuard.tenths(cents: 0.05) == PriceTenths(tenths: 1))
        for bad in [0, 0.04, -1, PriceGuard.maxCents + 1, 9.3e17, 1e300, .infinity, -.infinity, .nan] {
            #expect(PriceGuard.tenths(cents: bad) == nil, "\(bad)")
        }
    }

    // MARK: XML the Foundation parser cannot survive

    /// swift-corelibs-foundation's XMLParser traps on an element or attribute name that is not UTF-8.
    @Test(arguments: [
        [0x3C, 0xFF, 0xFF, 0x00, 0x00] as [UInt8],
        Array("<rss a".utf8) + [0xFF] + Array("=\"\"><channel/></rss>".utf8),
        Array("<?xml version=\"1.0\"?><rss version=\"2.0\"><channel><tt".utf8) + [0xEC] + Array(">720</tt></channel></rss>".utf8),
    ])
    func fuelWatchRSSNonUTF8IsRejectedNotTrapped(bytes: [UInt8]) {
        #expect(throws: AdapterError.self) {
            try FuelWatchRSSAdapter.adapt(Data(bytes), product: .unleaded, day: .today, fetchedAt: fetchedAt)
        }
    }

    /// ...and dereferences NULL (SIGSEGV) on a processing instruction without data, however it arrives.
    @Test(arguments: [
        Array("<?xml?>\n<rss version=\"2.0\"><channel/></rss>".utf8),
        Array("<rss version=\"2.0\"><channel><?x?></channel></rss>".utf8),
        Array("<!DOCTYPE rss [<!ENTITY e \"&#60;?x?&#62;\">]><rss version=\"2.0\"><channel>&e;</channel></rss>".utf8),
        Array("<?x?><rss/>".utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
        Array("<?xml version=\"1.0\" encoding=\"UTF-16\"?><rss/>".utf8),
    ])
    func fuelWatchRSSProcessingInstructionWithoutDataIsRejectedNotCrashing(bytes: [UInt8]) {
        #expect(throws: AdapterError.self) {
            try FuelWatchRSSAdapter.adapt(Data(bytes), product: .unleaded, day: .today, fetchedAt: fetchedAt)
        }
    }

    @Test func fuelWatchRSSWithDeclarationAndInstructionsWithDataStillParses() throws {
        let body = """
            <?xml version='1.0' encoding = "utf-8" ?>
            <?xml-stylesheet type="text/xsl" href="rss.xsl"?>
            <rss version="2.0"><channel><item><price>122.9</price><date>2019-11-03</date>
            <trading-name>United Byford</trading-name><latitude>-32.2154436</latitude><longitude>116.0080304</longitude>
            </item></channel></rss>
            """
        let adapted = try FuelWatchRSSAdapter.adapt(data(body), product: .unleaded, day: .today, fetchedAt: fetchedAt)
        #expect(adapted.update.prices.map(\.price) == [PriceTenths(tenths: 1229)])
    }

    // MARK: Day strings

    /// `dayString` printed year 912 as "912-11-03", which is not `yyyy-MM-dd` and does not parse back.
    @Test func dayStringsPadTheYearToFourDigits() throws {
        let days = try #require(WireTime.days(isoDay: "0912-11-03"))
        #expect(WireTime.dayString(days: days) == "0912-11-03")
        #expect(WireTime.dayString(days: WireTime.days(year: 0, month: 1, day: 1)) == "0000-01-01")
        #expect(WireTime.dayString(days: WireTime.days(year: 2026, month: 1, day: 15)) == "2026-01-15")
        let tomorrow = try FuelWatchRSSAdapter.adapt(rss(price: "122.9", date: "0912-11-03"), product: .unleaded, day: .tomorrow, fetchedAt: fetchedAt)
        #expect(tomorrow.update.tomorrow.map(\.day) == ["0912-11-03"])
    }
}

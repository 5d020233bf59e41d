import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct FuelWatchRSSAdapterTests {
    private func today(_ data: Data, product: FuelWatchProduct = .unleaded) throws -> Adapted {
        try FuelWatchRSSAdapter.adapt(data, product: product, day: .today, fetchedAt: Fixture.fetchedAt)
    }

    @Test func theFullFeedHasOneStationAndPricePerItem() throws {
        let adapted = try today(try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml"))
        #expect(adapted.update.provider == .wa)
        #expect(adapted.update.stations.count == 380)
        #expect(adapted.update.prices.count == 380)
        #expect(adapted.update.tomorrow.isEmpty)
        #expect(adapted.tally.skipped == 0)
        #expect(Set(adapted.update.stations.map(\.key)).count == 380)
        #expect(adapted.update.prices.allSatisfy { $0.fuel == .U91 })
    }

    @Test func todaysPricesHoldFrom6amPerthOnTheirDate() throws {
        let adapted = try today(try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml"))
        let byford = try #require(adapted.update.stations.first { $0.name == "United Byford" })
        #expect(byford.key == StationKey(provider: .wa, sourceID: "rss:-32.2154,116.0080"))
        #expect(byford.brand == "United")
        #expect(byford.address == "801-803 South Western Highway")
        #expect(byford.suburb == "Byford")
        #expect(byford.state == .WA)
        #expect(byford.location == Coordinate(latitude: -32.2154436, longitude: 116.0080304))
        let price = try #require(adapted.update.prices.first { $0.station == byford.key })
        #expect(price.price == PriceTenths(tenths: 1229))
        // 2019-11-03 06:00 AWST (UTC+8) is 2019-11-02 22:00 UTC.
        #expect(price.updatedAt == Fixture.instant("2019-11-02T22:00:00Z"))
        #expect(adapted.update.asOf == Fixture.instant("2019-11-02T22:00:00Z"))
    }

    /// The recorded feed (every item dated 2019-11-03) with its first item moved 3 days ahead: still the 3rd's
    /// feed, so on the 4th the merge refuses it as stale instead of taking the 3rd's prices as today's.
    @Test func theFeedIsDatedByMostOfItsItemsNotByOneAhead() throws {
        let recorded = String(decoding: try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml"), as: UTF8.self)
        let first = try #require(recorded.range(of: "<date>2019-11-03</date>"))
        let skewed = recorded.replacingCharacters(in: first, with: "<date>2019-11-06</date>")
        #expect(try today(Data(recorded.utf8)).update.tradingDay?.description == "2019-11-03")
        #expect(try today(Data(skewed.utf8)).update.tradingDay?.description == "2019-11-03")
    }

    @Test func entitiesAreDecoded() throws {
        let stations = try today(try Fixture.data("wa_fuelWatchRSS_today_metro_ULP.xml")).update.stations
        #expect(stations.contains { $0.name.contains("&") || $0.address.contains("&") || $0.brand.contains("&") })
        #expect(!stations.contains { $0.name.contains("&amp;") || $0.address.contains("&amp;") })
    }

    @Test func aBOMAndCRLFLineEndsAreTolerated() throws {
        let original = try Fixture.data("wa_fuelWatchRSS_fixture_2017.xml")
        let crlf = Data(String(decoding: original, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8)
        let wire = Data([0xEF, 0xBB, 0xBF]) + crlf
        #expect(wire.starts(with: [0xEF, 0xBB, 0xBF]) && wire.contains(0x0D))
        let adapted = try today(wire, product: .premiumUnleaded)
        #expect(adapted.update.stations.map(\.name) == ["Caltex Woolworths Beckenham", "Caltex StarMart Bassendean"])
        #expect(adapted.update.prices.map(\.price) == [PriceTenths(tenths: 1289), PriceTenths(tenths: 1299)])
        #expect(adapted.update.prices.allSatisfy { $0.fuel == .P95 })
        #expect(adapted.update.stations.first?.suburb == "Beckenham")
    }

    @Test func aTomorrowFeedBecomesTomorrowRecordsForItsDate() throws {
        let adapted = try FuelWatchRSSAdapter.adapt(
            try Fixture.data("wa_fuelWatchRSS_fixture_2017.xml"), product: .diesel, day: .tomorrow, fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.prices.isEmpty)
        #expect(adapted.update.tomorrow.count == 2)
        #expect(adapted.update.tomorrow.allSatisfy { $0.day == "2017-12-13" && $0.fuel == .DL })
        #expect(adapted.update.asOf == Fixture.fetchedAt)
    }

    @Test(arguments: [FuelWatchDay.today, .tomorrow])
    func anEmptyChannelIsAnEmptyUpdateNotAnError(day: FuelWatchDay) throws {
        let body = "\u{FEFF}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<rss version=\"2.0\"><channel><title>FuelWatch Prices For all metro regions</title></channel></rss>\r\n"
        let adapted = try FuelWatchRSSAdapter.adapt(Data(body.utf8), product: .unleaded, day: day, fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.stations.isEmpty && adapted.update.prices.isEmpty && adapted.update.tomorrow.isEmpty)
        #expect(adapted.update.asOf == Fixture.fetchedAt)
    }

    @Test func badItemsAreSkippedAndCounted() throws {
        let body = """
        <rss version="2.0"><channel>
        <item><trading-name>No Coordinates</trading-name><price>150.0</price><date>2019-11-03</date></item>
        <item><trading-name>A</trading-name><price>n/a</price><date>2019-11-03</date><latitude>-31.9</latitude><longitude>115.9</longitude></item>
        <item><trading-name>B</trading-name><price>151.9</price><date>03/11/2019</date><latitude>-31.8</latitude><longitude>115.8</longitude></item>
        <item><trading-name>C</trading-name><price>152.9</price><date>2019-11-03</date><latitude>-31.7</latitude><longitude>115.7</longitude></item>
        </channel></rss>
        """
        let adapted = try FuelWatchRSSAdapter.adapt(Data(body.utf8), product: .unleaded, day: .today, fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.stations.map(\.name) == ["A", "B", "C"])
        #expect(adapted.update.prices.count == 1)
        #expect(adapted.tally[.malformedRow] == 1)
        #expect(adapted.tally[.unavailablePrice] == 1)
        #expect(adapted.tally[.badTimestamp] == 1)
    }

    @Test func coLocatedSitesWithDifferentNamesKeepDistinctKeys() throws {
        let body = """
        <rss version="2.0"><channel>
        <item><trading-name>Car Side</trading-name><price>150.0</price><date>2019-11-03</date><latitude>-31.90001</latitude><longitude>115.9</longitude></item>
        <item><trading-name>Truck Side</trading-name><price>151.0</price><date>2019-11-03</date><latitude>-31.90002</latitude><longitude>115.9</longitude></item>
        </channel></rss>
        """
        let keys = try today(Data(body.utf8)).update.stations.map(\.key.sourceID)
        #expect(keys == ["rss:-31.9000,115.9000|car-side", "rss:-31.9000,115.9000|truck-side"])
    }

    @Test(arguments: ["", "not xml at all", "<html><body>Service Unavailable</body></html>", "<rss><channel><item>", #"{"items":[]}"#])
    func aBodyThatIsNotRSSThrows(body: String) {
        #expect(throws: AdapterError.self) {
            try FuelWatchRSSAdapter.adapt(Data(body.utf8), product: .unleaded, day: .tomorrow, fetchedAt: Fixture.fetchedAt)
        }
    }
}

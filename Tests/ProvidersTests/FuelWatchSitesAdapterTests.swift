import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct FuelWatchSitesAdapterTests {
    /// 2026-04-22 16:15 AWST, the capture time of the latest history day.
    private let afternoon = Fixture.instant("2026-04-22T16:15:00+08:00")

    private func brands() throws -> [String: String] {
        try FuelWatchSitesAdapter.brands(try Fixture.data("wa_api_brands_2026-04-22.json"))
    }

    @Test func brandCodesResolveThroughTheBrandsFile() throws {
        let brands = try brands()
        #expect(brands.count == 36)
        #expect(brands["VIB"] == "Vibe")
        #expect(brands["UTD"] == "United")
    }

    @Test func sitesBecomeStationsWithTodayAndTomorrowPrices() throws {
        let adapted = try FuelWatchSitesAdapter.adapt(try Fixture.data("wa_api_sites_fuelType_ULP.json"), brands: try brands(), fetchedAt: afternoon)
        #expect(adapted.update.stations.count == 6)
        #expect(adapted.update.prices.count == 6)
        #expect(adapted.update.tomorrow.count == 6)
        #expect(adapted.tally.skipped == 0)

        let key = StationKey(provider: .wa, sourceID: "site-2280")
        let station = try #require(adapted.update.stations.first { $0.key == key })
        #expect(station.name == "Vibe Oakford Truckstop")
        #expect(station.brand == "Vibe")
        #expect(station.address == "1780 Thomas Rd")
        #expect(station.suburb == "Oakford")
        #expect(station.postcode == "6121")
        #expect(station.state == .WA)

        let today = try #require(adapted.update.prices.first { $0.station == key })
        #expect(today.fuel == .U91)
        #expect(today.price == PriceTenths(tenths: 1892))
        #expect(today.updatedAt == Fixture.instant("2026-04-22T06:00:00+08:00"))
        #expect(adapted.update.asOf == today.updatedAt)
        let tomorrow = try #require(adapted.update.tomorrow.first { $0.station == key })
        #expect(tomorrow.day == "2026-04-23")
        #expect(tomorrow.price == PriceTenths(tenths: 1892))
    }

    @Test func unknownBrandCodesAreKeptAsTheyCame() throws {
        let adapted = try FuelWatchSitesAdapter.adapt(try Fixture.data("wa_api_sites_fuelType_DSL.json"), fetchedAt: afternoon)
        #expect(adapted.update.stations.contains { $0.brand == "ATL" })
        #expect(adapted.update.prices.allSatisfy { $0.fuel == .DL })
    }

    @Test func beforeSixInTheMorningThePricingDayIsStillYesterday() throws {
        let justAfterMidnight = Fixture.instant("2026-04-03T00:23:00+08:00")
        let adapted = try FuelWatchSitesAdapter.adapt(try Fixture.data("wa_api_sites_fuelType_ULP.json"), fetchedAt: justAfterMidnight)
        #expect(adapted.update.prices.first?.updatedAt == Fixture.instant("2026-04-02T06:00:00+08:00"))
        #expect(adapted.update.tomorrow.first?.day == "2026-04-03")
    }

    @Test func closedSitesWithoutPriceTodayKeepTheirStationAndBadRowsAreCounted() throws {
        let body = """
        [{"id":1,"siteName":"Closed","address":{"line1":"1 A St","location":"KALGOORLIE","postCode":6430,"latitude":-30.7,"longitude":121.4},
          "product":{"shortName":"ULP"},"brandName":"BP","isClosedNow":true},
         {"id":"2","siteName":"Open","address":{"line1":"2 B St","location":"PERTH","postCode":"6000","latitude":"-31.9","longitude":"115.8"},
          "product":{"shortName":"ULP","priceToday":"199.9","priceTomorrow":null},"brandName":"XYZ"},
         {"id":3,"siteName":"Mystery fuel","address":{"latitude":-31.9,"longitude":115.8},"product":{"shortName":"H2","priceToday":1}},
         {"siteName":"No id","address":{"latitude":-31.9,"longitude":115.8},"product":{"shortName":"ULP","priceToday":150}}]
        """
        let adapted = try FuelWatchSitesAdapter.adapt(Data(body.utf8), fetchedAt: afternoon)
        #expect(adapted.update.stations.map(\.key.sourceID) == ["site-1", "site-2", "site-3"])
        #expect(adapted.update.prices.map(\.price) == [PriceTenths(tenths: 1999)])
        #expect(adapted.update.tomorrow.isEmpty)
        #expect(adapted.tally[.unavailablePrice] == 1)
        #expect(adapted.tally[.unmappedFuel] == 1)
        #expect(adapted.tally[.malformedRow] == 1)
    }

    @Test(arguments: ["", "{}", "<html></html>", #"{"sites":[]}"#])
    func anEnvelopeThatIsNotAnArrayThrows(body: String) {
        #expect(throws: AdapterError.self) {
            try FuelWatchSitesAdapter.adapt(Data(body.utf8), fetchedAt: Fixture.fetchedAt)
        }
    }
}

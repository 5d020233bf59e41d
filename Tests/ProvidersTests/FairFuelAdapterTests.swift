import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct FairFuelAdapterTests {
    private func brands() throws -> [String: String] {
        try FairFuelAdapter.brands(try Fixture.data("vic_reference-data_brands.json"))
    }

    @Test func theFullPayloadKeepsEveryStationAndDropsUnavailablePrices() throws {
        let adapted = try FairFuelAdapter.adapt(try Fixture.data("vic_fuel_prices.json"), brands: try brands(), fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.provider == .vic)
        #expect(adapted.update.stations.count == 1_754)
        #expect(adapted.update.prices.count == 7_333 - 196)
        #expect(adapted.tally[.unavailablePrice] == 196)
        #expect(adapted.tally.skipped == 196)
        #expect(adapted.update.stations.allSatisfy { $0.state == .VIC && !$0.suburb.isEmpty && $0.postcode?.count == 4 })
        #expect(adapted.update.stations.allSatisfy { !$0.brand.isEmpty })
        // The one CNG row is unavailable.
        #expect(Set(adapted.update.prices.map(\.fuel)) == [.U91, .P98, .DL, .P95, .PDL, .LPG, .E10, .E85, .LNG])
    }

    @Test func asOfIsTheNewestUpdateAboutADayBeforeTheFetch() throws {
        let update = try FairFuelAdapter.adapt(try Fixture.data("vic_fuel_prices.json"), fetchedAt: Fixture.fetchedAt).update
        // Fetched 2026-08-22 14:00 UTC; the API lags by 24 h.
        #expect(update.asOf == Fixture.instant("2026-08-21T13:16:39Z"))
    }

    @Test func aStationIsAdaptedWithBrandSuburbAndPostcode() throws {
        let adapted = try FairFuelAdapter.adapt(try Fixture.data("vic_fuel_prices.subset.json"), brands: try brands(), fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.stations.count == 11)
        #expect(adapted.update.prices.count == 46 - 13)
        let key = StationKey(provider: .vic, sourceID: "aOS09It5nyqIEFqWdzjpTAK73Z3nWvpmh05y7gaCNAQ=")
        let station = try #require(adapted.update.stations.first { $0.key == key })
        #expect(station.name == "Bonney Energy - Horsham Truckstop")
        #expect(station.brand == "Ampol")
        #expect(station.address == "85 Burnt Creek Drive")
        #expect(station.suburb == "Bungalally")
        #expect(station.postcode == "3401")
        #expect(station.location == Coordinate(latitude: -36.7598302, longitude: 142.24229049))
        let diesel = try #require(adapted.update.prices.first { $0.station == key })
        #expect(diesel.fuel == .DL)
        #expect(diesel.price == PriceTenths(tenths: 2399))
        #expect(diesel.updatedAt == Fixture.instant("2026-08-20T20:00:00Z"))
        #expect(adapted.update.stations.contains { $0.suburb == "Bittern" && $0.address == "2320 Frankston-Flinders Road" })
    }

    @Test func aNullPriceIsDroppedAndPremiumDieselMaps() throws {
        let body = """
        {"fuelPriceDetails":[{"fuelStation":{"id":"x","name":"X","address":"1 A St, Carlton, 3053","brandId":"nope",
          "location":{"latitude":-37.8,"longitude":144.96}},
          "fuelPrices":[{"fuelType":"PDSL","isAvailable":true,"price":247,"updatedAt":"2026-08-20T20:39:16Z"},
                        {"fuelType":"U91","isAvailable":false,"price":null,"updatedAt":"2026-08-20T20:39:16Z"},
                        {"fuelType":"H2","isAvailable":true,"price":1500,"updatedAt":"2026-08-20T20:39:16Z"},
                        {"fuelType":"E10","isAvailable":true,"price":180.9,"updatedAt":"Thursday"},
                        {"isAvailable":true}],
          "updatedAt":"2026-08-20T20:39:16Z"},
         {"fuelStation":{"id":"broken"}}]}
        """
        let adapted = try FairFuelAdapter.adapt(Data(body.utf8), fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.stations.map(\.key.sourceID) == ["x"])
        #expect(adapted.update.stations.first?.brand == "")
        #expect(adapted.update.prices.map(\.fuel) == [.PDL])
        #expect(adapted.update.prices.first?.price == PriceTenths(tenths: 2470))
        #expect(adapted.tally[.unavailablePrice] == 1)
        #expect(adapted.tally[.unmappedFuel] == 1)
        #expect(adapted.tally[.badTimestamp] == 1)
        #expect(adapted.tally[.malformedRow] == 2)
    }

    @Test(arguments: ["", "[]", #"{"message":"Too Many Requests"}"#, "<html>429</html>"])
    func undecodableEnvelopesThrow(body: String) {
        #expect(throws: AdapterError.self) {
            try FairFuelAdapter.adapt(Data(body.utf8), fetchedAt: Fixture.fetchedAt)
        }
    }
}

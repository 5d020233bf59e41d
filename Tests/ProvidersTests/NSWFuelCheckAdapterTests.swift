import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct NSWFuelCheckAdapterTests {
    private func adaptFull() throws -> Adapted {
        let results = try NSWFuelCheckAdapter.adapt(try Fixture.data("nsw_v1_fuel_prices.json"), fetchedAt: Fixture.fetchedAt)
        #expect(results.count == 1)
        return try #require(results.first)
    }

    @Test func theFullPayloadKeepsEveryStationAndDropsOnlyEVRows() throws {
        let adapted = try adaptFull()
        #expect(adapted.update.provider == .nsw)
        #expect(adapted.update.stations.count == 3_289)
        // 10,693 rows, of which 909 are EV (907 at 0 c, two at 45 and 1 c); no fuel row is <= 0.
        #expect(adapted.update.prices.count == 10_693 - 909)
        #expect(adapted.tally[.unmappedFuel] == 909)
        #expect(adapted.tally[.unavailablePrice] == 0)
        #expect(adapted.tally.skipped == 909)
        #expect(!adapted.update.isDelta)
        #expect(Set(adapted.update.prices.map(\.fuel)) == [.U91, .P98, .E10, .PDL, .P95, .DL, .LPG, .E85, .B20])
    }

    @Test func seventyStationsAreInTheACT() throws {
        let stations = try adaptFull().update.stations
        #expect(stations.filter { $0.state == .ACT }.count == 70)
        #expect(stations.filter { $0.state == .NSW }.count == 3_289 - 70)
        // Hume's postcode 2620 is a NSW one; the address says ACT.
        #expect(stations.contains { $0.suburb == "Hume" && $0.state == .ACT && $0.postcode == "2620" })
    }

    @Test func everyStationHasAPostcodeAndAllButFifteenASuburb() throws {
        let stations = try adaptFull().update.stations
        #expect(stations.allSatisfy { $0.postcode?.count == 4 })
        // The rest have no comma and no change of case to split on ("827 Anzac Parade Maroubra NSW 2035").
        #expect(stations.filter { $0.suburb.isEmpty }.count == 15)
        #expect(!stations.contains { $0.suburb.contains(where: \.isNumber) || $0.suburb.contains(",") })
    }

    @Test func lastUpdatedIsReadAsUTCAndTheNewestPriceIsTwoMinutesBeforeTheFetch() throws {
        let update = try adaptFull().update
        // Fetched 2026-01-15T02:32:51Z (Postman file name); the newest row says 15/01/2026 02:30:53.
        #expect(update.asOf == Fixture.instant("2026-01-15T02:30:53Z"))
        #expect(update.asOf < Fixture.instant("2026-01-15T02:32:51Z"))
    }

    @Test func aStationIsAdaptedWithParsedAddressAndCentsAsTenths() throws {
        let update = try adaptFull().update
        let key = StationKey(provider: .nsw, sourceID: "972")
        let station = try #require(update.stations.first { $0.key == key })
        #expect(station.name == "United Petroleum Umina")
        #expect(station.brand == "United")
        #expect(station.address == "307-313 Ocean Beach Road")
        #expect(station.suburb == "Umina Beach")
        #expect(station.state == .NSW)
        #expect(station.postcode == "2257")
        #expect(station.location == Coordinate(latitude: -33.511231, longitude: 151.318092))

        let prices = update.prices.filter { $0.station == key }
        #expect(prices.count == 7)
        let e10 = try #require(prices.first { $0.fuel == .E10 })
        #expect(e10.price == PriceTenths(tenths: 1719))
        #expect(e10.updatedAt == Fixture.instant("2026-01-12T03:05:05Z"))
        let stale = try #require(prices.first { $0.fuel == .E85 })
        #expect(stale.updatedAt == Fixture.instant("2023-09-21T02:35:10Z"))
    }

    @Test func integerPricesAreWholeCents() throws {
        // 1,024 rows are JSON integers such as 225; they must become 2250 tenths, not 225.
        let prices = try adaptFull().update.prices
        #expect(prices.allSatisfy { $0.price.tenths > 1_000 || $0.fuel == .LPG })
    }

    @Test func theSubsetKeepsACTStationsAndDropsItsEVRows() throws {
        let adapted = try #require(try NSWFuelCheckAdapter.adapt(try Fixture.data("nsw_v1_fuel_prices.subset.json"), fetchedAt: Fixture.fetchedAt).first)
        #expect(adapted.update.stations.count == 15)
        #expect(adapted.update.prices.count == 65 - 3)
        let act = adapted.update.stations.filter { $0.state == .ACT }.map(\.key.sourceID).sorted()
        #expect(act == ["18711", "18713"])
        let nicholls = try #require(adapted.update.stations.first { $0.key.sourceID == "18711" })
        #expect(nicholls.suburb == "Nicholls")
        #expect(nicholls.postcode == "2913")
        #expect(nicholls.address == "6 GOLD CREEK RD")
    }

    @Test func theAppAPIShapeWithIntegerCodesAndISODatesIsAccepted() throws {
        let adapted = try #require(try NSWFuelCheckAdapter.adapt(try Fixture.data("nsw_fuelcheckapp_v1_prices_nearby_U91.json"), fetchedAt: Fixture.fetchedAt).first)
        #expect(adapted.update.stations.count == 6)
        #expect(adapted.update.prices.count == 6)
        #expect(adapted.tally.skipped == 0)
        let price = try #require(adapted.update.prices.first { $0.station == StationKey(provider: .nsw, sourceID: "661") })
        #expect(price.fuel == .U91)
        #expect(price.price == PriceTenths(tenths: 2049))
        #expect(price.updatedAt == Fixture.instant("2026-08-25T08:12:18Z"))
        #expect(adapted.update.stations.contains { $0.key.sourceID == "16924" && $0.suburb == "Chippendale" })
    }

    @Test func v2TasmanianStationsAreKeyedUnderTheirOwnProviderEvenWhenCodesCollide() throws {
        let body = """
        {"stations":[
          {"brand":"BP","code":1,"name":"BP Sydney","address":"1 George St, SYDNEY NSW 2000","location":{"latitude":-33.86,"longitude":151.2},"state":"NSW"},
          {"brand":"Ampol","code":"1","name":"Ampol Hobart","address":"2 Main Rd, HOBART TAS 7000","location":{"latitude":"-42.88","longitude":"147.33"},"state":"TAS"}],
         "prices":[
          {"stationcode":1,"state":"NSW","fueltype":"E94","price":"201.9","lastupdated":"26/08/2026 09:05:17"},
          {"stationcode":"1","state":"TAS","fueltype":"E105","price":258.9,"lastupdated":"26/08/2026 09:06:17"},
          {"stationcode":1,"state":"TAS","fueltype":"H2","price":1500,"lastupdated":"26/08/2026 09:06:17"},
          {"stationcode":99,"state":"NSW","fueltype":"U91","price":190,"lastupdated":"26/08/2026 09:06:17"},
          {"stationcode":1,"state":"NSW","fueltype":"U91","price":0,"lastupdated":"26/08/2026 09:06:17"},
          {"stationcode":1,"state":"NSW","fueltype":"DL","price":210.9,"lastupdated":"yesterday"},
          {"stationcode":{"oops":1},"fueltype":"DL","price":210.9,"lastupdated":"26/08/2026 09:06:17"}]}
        """
        let results = try NSWFuelCheckAdapter.adapt(Data(body.utf8), fetchedAt: Fixture.fetchedAt)
        #expect(results.map(\.update.provider) == [.nsw, .tas])
        let nsw = results[0], tas = results[1]
        #expect(nsw.update.stations.map(\.key) == [StationKey(provider: .nsw, sourceID: "1")])
        #expect(tas.update.stations.map(\.key) == [StationKey(provider: .tas, sourceID: "1")])
        #expect(tas.update.stations.first?.state == .TAS)
        #expect(nsw.update.prices.map(\.fuel) == [.E10])
        #expect(tas.update.prices.map(\.fuel) == [.E85])
        #expect(tas.update.asOf == Fixture.instant("2026-08-26T09:06:17Z"))
        #expect(nsw.tally[.unmappedFuel] == 1)
        #expect(nsw.tally[.unknownStation] == 1)
        #expect(nsw.tally[.unavailablePrice] == 1)
        #expect(nsw.tally[.badTimestamp] == 1)
        #expect(nsw.tally[.malformedRow] == 1)
    }

    @Test func deltasAreFlaggedAndMayPriceStationsTheyDoNotList() throws {
        let body = #"{"stations":[],"prices":[{"stationcode":"972","fueltype":"U91","price":175.9,"lastupdated":"15/01/2026 03:00:00"}]}"#
        let update = try #require(try NSWFuelCheckAdapter.adapt(Data(body.utf8), isDelta: true, fetchedAt: Fixture.fetchedAt).first).update
        #expect(update.isDelta)
        #expect(update.prices.count == 1)
        #expect(update.asOf == Fixture.instant("2026-01-15T03:00:00Z"))
    }

    @Test func anEmptyDeltaIsAValidEmptyUpdateAsOfTheFetch() throws {
        let update = try #require(try NSWFuelCheckAdapter.adapt(Data(#"{"stations":[],"prices":[]}"#.utf8), isDelta: true, fetchedAt: Fixture.fetchedAt).first).update
        #expect(update.prices.isEmpty && update.stations.isEmpty)
        #expect(update.asOf == Fixture.fetchedAt)
    }

    @Test func localTimestampsCanBeSwitchedOn() throws {
        let body = #"{"stations":[],"prices":[{"stationcode":"972","fueltype":"U91","price":175.9,"lastupdated":"15/01/2026 13:30:00"}]}"#
        let sydney = try #require(TimeZone(identifier: "Australia/Sydney"))
        let update = try #require(try NSWFuelCheckAdapter.adapt(Data(body.utf8), isDelta: true, timestamps: .local(sydney), fetchedAt: Fixture.fetchedAt).first).update
        #expect(update.prices.first?.updatedAt == Fixture.instant("2026-01-15T02:30:00Z"))  // AEDT = UTC+11
    }

    @Test(arguments: ["", "   \n", "<html>nope</html>", "[1,2,3]", #"{"errorDetails":[{"code":"E0014","description":"Invalid"}]}"#, #"{"stations":"x","prices":[]}"#])
    func garbageThrowsInsteadOfBecomingAnEmptyList(body: String) {
        #expect(throws: AdapterError.self) {
            try NSWFuelCheckAdapter.adapt(Data(body.utf8), fetchedAt: Fixture.fetchedAt)
        }
    }
}

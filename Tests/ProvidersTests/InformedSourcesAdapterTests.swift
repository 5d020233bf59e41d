import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct InformedSourcesAdapterTests {
    private func qldBrands() throws -> [Int: String] {
        try InformedSourcesAdapter.brands(try Fixture.data("qld_GetCountryBrands.json"))
    }

    private func station(_ id: String, region: InformedSourcesAdapter.Region = .sa) -> StationRecord {
        StationRecord(
            key: StationKey(provider: region.provider, sourceID: id), name: "Site \(id)", brand: "", address: "", suburb: "",
            state: region.state, postcode: nil, location: Coordinate(latitude: -34.9, longitude: 138.6))
    }

    @Test func brandsResolveByID() throws {
        let brands = try qldBrands()
        #expect(brands.count == 49)
        #expect(brands[86] == "Liberty")
        #expect(brands[3421066] == "Ampol")
    }

    @Test func everyMappedFuelIDMatchesTheProvidersFuelNames() throws {
        // The map is fixed in code (§7); this guards it against the provider's own list.
        let body = try Fixture.data("qld_GetCountryFuelTypes.json")
        struct Fuels: Decodable { struct Fuel: Decodable { var FuelId: Int; var Name: String }; var Fuels: [Fuel] }
        let fuels = try JSONDecoder().decode(Fuels.self, from: body).Fuels
        let mapped = Dictionary(uniqueKeysWithValues: fuels.map { ($0.Name, InformedSourcesAdapter.fuelType(id: $0.FuelId)) })
        #expect(mapped["Unleaded"] == .U91)
        #expect(mapped["Diesel"] == .DL)
        #expect(mapped["ULSD"] == .DL)
        #expect(mapped["Premium Unleaded 95"] == .P95)
        #expect(mapped["Premium Unleaded 98"] == .P98)
        #expect(mapped["e10"] == .E10)
        #expect(mapped["Premium e5"] == .E5)
        #expect(mapped["Premium Diesel"] == .PDL)
        #expect(mapped["Bio-Diesel 20"] == .B20)
        #expect(mapped["e85"] == .E85)
        #expect(mapped["OPAL"] == .LAF)
        #expect(mapped["LRP"] == .LRP)
        #expect(mapped["e10/Unleaded"] == .some(nil))
        #expect(mapped["Diesel/Premium Diesel"] == .some(nil))
        #expect(fuels.filter { InformedSourcesAdapter.fuelType(id: $0.FuelId) != nil }.count == 15)
    }

    @Test func theFullQLDSiteListBecomesStations() throws {
        let adapted = try InformedSourcesAdapter.sites(
            try Fixture.data("qld_GetFullSiteDetails.json"), region: .qld, brands: try qldBrands(),
            suburbs: [182624964: "SURAT", 182624935: "South Nerang"], fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.provider == .qld)
        #expect(adapted.update.stations.count == 1_727)
        #expect(adapted.update.prices.isEmpty)
        #expect(adapted.tally.skipped == 0)
        #expect(adapted.update.asOf == Fixture.fetchedAt)
        #expect(adapted.update.stations.allSatisfy { $0.state == .QLD && $0.key.provider == .qld })

        let surat = try #require(adapted.update.stations.first { $0.key.sourceID == "61290151" })
        #expect(surat.name == "Liberty Surat")
        #expect(surat.brand == "Liberty")
        #expect(surat.address == "61 Burrowes St")
        #expect(surat.suburb == "Surat")
        #expect(surat.postcode == "4417")
        #expect(surat.location == Coordinate(latitude: -27.151627, longitude: 149.067712))

        // 88 addresses begin with a space on the wire.
        let nerang = try #require(adapted.update.stations.first { $0.key.sourceID == "61401011" })
        #expect(nerang.address == "Cnr Pappas Wy West & Hinkler Dr")
        #expect(nerang.suburb == "South Nerang")
        #expect(!adapted.update.stations.contains { $0.address.hasPrefix(" ") })
    }

    @Test func anSASiteWithAStringIDIsAccepted() throws {
        let adapted = try InformedSourcesAdapter.sites(
            try Fixture.data("sa_GetFullSiteDetails.record-fragment.json"), region: .sa, brands: [169: "On the Run"],
            suburbs: [170227225: "Dry Creek"], fetchedAt: Fixture.fetchedAt)
        let site = try #require(adapted.update.stations.first)
        #expect(adapted.update.provider == .sa)
        #expect(site.key == StationKey(provider: .sa, sourceID: "61205460"))
        #expect(site.state == .SA)
        #expect(site.brand == "On the Run")
        #expect(site.suburb == "Dry Creek")
        #expect(site.postcode == "5094")
    }

    @Test func suburbNamesComeFromLevelOneRegionsOnly() throws {
        let body = #"{"GeographicRegions":[{"GeoRegionLevel":1,"GeoRegionId":1,"Name":"Cranbourne","Abbrev":"","GeoRegionParentId":148},{"GeoRegionLevel":3,"GeoRegionId":1,"Name":"QLD","Abbrev":"QLD","GeoRegionParentId":null},{"GeoRegionLevel":2,"GeoRegionId":189,"Name":"Adelaide"}]}"#
        #expect(try InformedSourcesAdapter.suburbs(Data(body.utf8)) == [1: "Cranbourne"])
    }

    @Test func pricesAreTenthsOfACentAndTheSentinelIsDropped() throws {
        let adapted = try InformedSourcesAdapter.prices(
            try Fixture.data("sa_GetSitesPrices.assembled-fragment.json"), region: .sa,
            stations: [station("61501045"), station("61577318")], fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.stations.count == 2)
        let price = try #require(adapted.update.prices.first)
        #expect(adapted.update.prices.count == 1)
        #expect(price.station == StationKey(provider: .sa, sourceID: "61501045"))
        #expect(price.fuel == .PDL)
        #expect(price.price == PriceTenths(tenths: 1356))
        #expect(price.price.cents == 135.6)
        #expect(price.updatedAt == Fixture.instant("2021-01-06T22:55:00Z"))
        #expect(adapted.update.asOf == price.updatedAt)
        #expect(adapted.tally[.unavailablePrice] == 1)
    }

    @Test func transactionTimesAreUTCWithZeroToThreeFractionDigits() throws {
        let body = #"""
        {"SitePrices":[
          {"SiteId":1,"FuelId":2,"TransactionDateUtc":"2021-03-02T04:01:24","Price":1859.0},
          {"SiteId":1,"FuelId":3,"TransactionDateUtc":"2021-03-02T04:01:24.1","Price":1869},
          {"SiteId":1,"FuelId":5,"TransactionDateUtc":"2021-03-02T04:01:24.13","Price":"1879"},
          {"SiteId":"1","FuelId":8,"TransactionDateUtc":"2021-03-02T04:01:24.137","Price":1889.0}]}
        """#
        let prices = try InformedSourcesAdapter.prices(Data(body.utf8), region: .qld, stations: [station("1", region: .qld)], fetchedAt: Fixture.fetchedAt).update.prices
        let base = Fixture.instant("2021-03-02T04:01:24Z").timeIntervalSince1970
        #expect(prices.map(\.fuel) == [.U91, .DL, .P95, .P98])
        #expect(prices.map(\.price.tenths) == [1859, 1869, 1879, 1889])
        let offsets = prices.map { (($0.updatedAt.timeIntervalSince1970 - base) * 1000).rounded() }
        #expect(offsets == [0, 100, 130, 137])
    }

    @Test func ofDuplicateRowsTheLatestTransactionWins() throws {
        let body = #"""
        {"SitePrices":[
          {"SiteId":7,"FuelId":2,"TransactionDateUtc":"2021-03-02T04:00:00","Price":1859.0},
          {"SiteId":7,"FuelId":2,"TransactionDateUtc":"2021-03-02T06:00:00.5","Price":1799.0},
          {"SiteId":7,"FuelId":2,"TransactionDateUtc":"2021-03-02T05:00:00","Price":1829.0},
          {"SiteId":7,"FuelId":3,"TransactionDateUtc":"2021-03-02T04:00:00","Price":1999.0},
          {"SiteId":7,"FuelId":3,"TransactionDateUtc":"2021-03-02T05:00:00","Price":9999.0}]}
        """#
        let adapted = try InformedSourcesAdapter.prices(Data(body.utf8), region: .qld, stations: [station("7", region: .qld)], fetchedAt: Fixture.fetchedAt)
        // U91: the 06:00 row; diesel: the latest row says unavailable, so no diesel price at all.
        #expect(adapted.update.prices.map(\.price.tenths) == [1799])
        #expect(adapted.update.prices.first?.updatedAt == Fixture.instant("2021-03-02T06:00:00Z").addingTimeInterval(0.5))
        #expect(adapted.tally[.supersededDuplicate] == 3)
        #expect(adapted.tally[.unavailablePrice] == 1)
    }

    @Test func unknownSitesPseudoFuelsAndCentTyposAreHandled() throws {
        let body = #"""
        {"SitePrices":[
          {"SiteId":404,"FuelId":2,"TransactionDateUtc":"2021-03-02T04:00:00","Price":1859.0},
          {"SiteId":7,"FuelId":999,"TransactionDateUtc":"2021-03-02T04:00:00","Price":1859.0},
          {"SiteId":7,"FuelId":1000,"TransactionDateUtc":"2021-03-02T04:00:00","Price":1959.0},
          {"SiteId":7,"FuelId":2,"TransactionDateUtc":"2021-03-02T04:00:00","Price":185.9},
          {"SiteId":7,"FuelId":4,"TransactionDateUtc":"2021-03-02T04:00:00","Price":959.0},
          {"SiteId":7,"FuelId":12,"TransactionDateUtc":"2021-03-02T04:00:00","Price":999.0},
          {"SiteId":7,"FuelId":5,"TransactionDateUtc":"02/03/2021","Price":1900.0},
          {"SiteId":7,"FuelId":8}]}
        """#
        let adapted = try InformedSourcesAdapter.prices(Data(body.utf8), region: .qld, stations: [station("7", region: .qld)], fetchedAt: Fixture.fetchedAt)
        #expect(adapted.update.prices.map(\.fuel) == [.U91, .LPG])
        #expect(adapted.update.prices.map(\.price.tenths) == [1859, 959])
        #expect(adapted.tally[.unknownStation] == 1)
        #expect(adapted.tally[.unmappedFuel] == 2)
        #expect(adapted.tally[.correctedUnit] == 1)
        #expect(adapted.tally[.unavailablePrice] == 1)
        #expect(adapted.tally[.badTimestamp] == 1)
        #expect(adapted.tally[.malformedRow] == 1)
    }

    @Test(arguments: ["", "[]", "{}", "<Error>Unauthorized</Error>", #"{"SitePrices":{"a":1}}"#])
    func undecodableEnvelopesThrow(body: String) {
        #expect(throws: AdapterError.self) {
            try InformedSourcesAdapter.prices(Data(body.utf8), region: .qld, stations: [], fetchedAt: Fixture.fetchedAt)
        }
        #expect(throws: AdapterError.self) {
            try InformedSourcesAdapter.sites(Data(body.replacingOccurrences(of: "SitePrices", with: "S").utf8), region: .qld, fetchedAt: Fixture.fetchedAt)
        }
    }
}

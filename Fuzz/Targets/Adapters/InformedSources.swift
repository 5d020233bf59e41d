// libFuzzer target `informed-sources`: arbitrary bytes as QLD/SA `GetFullSiteDetails`, `GetSitesPrices`,
// `GetCountryBrands` and `GetCountryGeographicRegions`. Prices are adapted against the stations the same input
// yields as sites plus a few fixed ones whose ids appear in the seed payloads, so price rows reach the
// known-station paths. The input's size picks the region.
import Foundation
import Fuel
@testable import Providers

private func fixedStations(_ region: InformedSourcesAdapter.Region) -> [StationRecord] {
    ["61205460", "61501045", "61577318", "61401007", "1", "2"].map { id in
        StationRecord(
            key: StationKey(provider: region.provider, sourceID: id), name: "Fuzz \(id)", brand: "", address: "",
            suburb: "", state: region.state, postcode: nil, location: Coordinate(latitude: -34.8, longitude: 138.6))
    }
}
private let fixed: [InformedSourcesAdapter.Region: [StationRecord]] = [.qld: fixedStations(.qld), .sa: fixedStations(.sa)]
private let knownBrands = [2: "Caltex", 5: "BP", 169: "OTR"]
private let knownSuburbs = [170227225: "DRY CREEK"]

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let payload = fuzzData(data, size)
    let region: InformedSourcesAdapter.Region = size & 1 == 0 ? .qld : .sa
    var stations = fixed[region]!
    if let sites = try? InformedSourcesAdapter.sites(
        payload, region: region, brands: knownBrands, suburbs: knownSuburbs, fetchedAt: fuzzFetchedAt) {
        fuzzCheck(sites)
        fuzzCheck(sites.update.prices.isEmpty, "sites produced prices")
        stations += sites.update.stations
    }
    if let prices = try? InformedSourcesAdapter.prices(payload, region: region, stations: stations, fetchedAt: fuzzFetchedAt) {
        fuzzCheck(prices)
        let known = Set(stations.map(\.key))
        fuzzCheck(prices.update.prices.allSatisfy { known.contains($0.station) }, "price for an unknown station")
    }
    _ = try? InformedSourcesAdapter.brands(payload)
    _ = try? InformedSourcesAdapter.suburbs(payload)
    return 0
}

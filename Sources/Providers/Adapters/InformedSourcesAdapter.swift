import Fuel
import Foundation

/// The Informed Sources "Direct API (OUT)" used by QLD (Fuel Prices QLD) and SA (SAFPIS), PROVIDERS.md §3–4.
///
/// Sites change rarely and are polled daily; prices are polled every few minutes. `sites(...)` adapts
/// `GetFullSiteDetails` into stations; `prices(...)` adapts `GetSitesPrices` against the last station list and
/// returns a complete update (those stations plus their prices). Prices are tenths of a cent: 1859 is 185.9 c/L.
public enum InformedSourcesAdapter {
    public enum Region: Sendable, CaseIterable {
        case qld, sa

        public var provider: ProviderID {
            switch self {
            case .qld: .qld
            case .sa: .sa
            }
        }

        public var state: AustralianState {
            switch self {
            case .qld: .QLD
            case .sa: .SA
            }
        }

        var source: String { self == .qld ? "QLD Fuel Prices" : "SA SAFPIS" }
    }

    /// `GetCountryBrands`: `{"Brands":[{"BrandId":2,"Name":"Caltex"}]}` -> `[2: "Caltex"]`.
    public static func brands(_ data: Data) throws(AdapterError) -> [Int: String] {
        let envelope = try JSONPayload.decode(BrandsEnvelope.self, from: data, source: "Informed Sources GetCountryBrands")
        return Dictionary(envelope.Brands.unwrapped().rows.compactMap { row in Int(row.BrandId.value).map { ($0, row.Name) } },
                          uniquingKeysWith: { first, _ in first })
    }

    /// `GetCountryGeographicRegions`: the level-1 (suburb) names by region id, for sites' `G1`.
    /// Ids repeat across levels, so only level 1 is kept.
    public static func suburbs(_ data: Data) throws(AdapterError) -> [Int: String] {
        let envelope = try JSONPayload.decode(RegionsEnvelope.self, from: data, source: "Informed Sources GetCountryGeographicRegions")
        var names: [Int: String] = [:]
        for region in envelope.GeographicRegions.unwrapped().rows where region.GeoRegionLevel == 1 {
            names[region.GeoRegionId] = region.Name
        }
        return names
    }

    /// `GetFullSiteDetails` -> stations (no prices). `asOf` is `fetchedAt`: site `M` stamps date from 2019–2020
    /// and say nothing about how current the list is.
    public static func sites(
        _ data: Data, region: Region, brands: [Int: String] = [:], suburbs: [Int: String] = [:], fetchedAt: Date
    ) throws(AdapterError) -> Adapted {
        let source = "\(region.source) GetFullSiteDetails"
        let envelope = try JSONPayload.decode(SitesEnvelope.self, from: data, source: source, codeKey: "B")
        guard let rows = envelope.S else { throw .unexpectedShape(source: source, detail: "no 'S' array") }
        var tally = AdapterTally()
        let sites = rows.unwrapped(countingFailuresIn: &tally)
        var stations: [StationRecord] = []
        stations.reserveCapacity(sites.count)
        for site in sites {
            let location = Coordinate(latitude: site.Lat.value, longitude: site.Lng.value)
            guard location.isValid, !(location.latitude == 0 && location.longitude == 0) else { tally.record(.malformedRow); continue }
            let postcode = site.P.map(\.value).flatMap { $0.isEmpty ? nil : $0 }
            stations.append(StationRecord(
                key: StationKey(provider: region.provider, sourceID: site.S.value), name: site.N.trimmingWhitespace(),
                brand: site.B.flatMap { Int($0.value) }.flatMap { brands[$0] } ?? "",
                address: (site.A ?? "").trimmingWhitespace(),
                suburb: site.G1.flatMap { suburbs[$0] }.map(AddressParser.normalisedSuburb) ?? "",
                state: region.state, postcode: postcode, location: location))
        }
        return Adapted(update: ProviderUpdate(provider: region.provider, stations: stations, prices: [], asOf: fetchedAt), tally: tally)
    }

    /// `GetSitesPrices` -> the given stations with their prices.
    /// Rows for sites not in `stations`, unmapped fuels (incl. pseudo-fuels 999/1000) and the `9999` sentinel are
    /// skipped and counted. Of several rows per (site, fuel) the latest `TransactionDateUtc` wins (ties: the later row).
    /// Prices with three or fewer integer digits (two for LPG) were typed in cents and are multiplied by 10
    /// (adelaidefuel's correction, §4); `999` is read as the sentinel. `asOf` is the newest kept price, else `fetchedAt`.
    public static func prices(_ data: Data, region: Region, stations: [StationRecord], fetchedAt: Date) throws(AdapterError) -> Adapted {
        let source = "\(region.source) GetSitesPrices"
        let envelope = try JSONPayload.decode(PricesEnvelope.self, from: data, source: source, codeKey: "SiteId")
        guard let rows = envelope.SitePrices else { throw .unexpectedShape(source: source, detail: "no 'SitePrices' array") }
        var tally = AdapterTally()
        let wirePrices = rows.unwrapped(countingFailuresIn: &tally)
        let known = Set(stations.lazy.map(\.key))

        struct Slot: Hashable { var station: StationKey; var fuel: FuelType }
        var latest: [Slot: (at: TimeInterval, wire: Double)] = [:]
        var order: [Slot] = []
        for row in wirePrices {
            guard let fuel = fuelType(id: row.FuelId.value) else { tally.record(.unmappedFuel); continue }
            let key = StationKey(provider: region.provider, sourceID: row.SiteId.value)
            guard known.contains(key) else { tally.record(.unknownStation); continue }
            guard let at = WireTime.naiveSeconds(row.TransactionDateUtc) else { tally.record(.badTimestamp); continue }
            let slot = Slot(station: key, fuel: fuel)
            if let previous = latest[slot] {
                tally.record(.supersededDuplicate)
                if at < previous.at { continue }
            } else {
                order.append(slot)
            }
            latest[slot] = (at, row.Price.value)
        }

        var prices: [PriceRecord] = []
        prices.reserveCapacity(order.count)
        for slot in order {
            let (at, wire) = latest[slot]!
            guard let tenths = validTenths(wire) else { tally.record(.unavailablePrice); continue }
            var price = PriceTenths(tenths: tenths)
            if wire < (slot.fuel == .LPG ? 100 : 1_000) {
                price = PriceTenths(cents: wire)
                tally.record(.correctedUnit)
            }
            prices.append(PriceRecord(station: slot.station, fuel: slot.fuel, price: price, updatedAt: Date(timeIntervalSince1970: at)))
        }
        let update = ProviderUpdate(
            provider: region.provider, stations: stations, prices: prices, asOf: prices.lazy.map(\.updatedAt).max() ?? fetchedAt)
        return Adapted(update: update, tally: tally)
    }

    /// `FuelId` -> grade (§3, §7). 999 "e10/Unleaded" and 1000 "Diesel/Premium Diesel" are display combos: nil.
    static func fuelType(id: Int) -> FuelType? {
        switch id {
        case 2: .U91
        case 3, 6: .DL  // 6 is ULSD, ultra-low-sulphur diesel
        case 4: .LPG
        case 5: .P95
        case 8: .P98
        case 11: .LRP
        case 12: .E10
        case 13: .E5
        case 14: .PDL
        case 16: .B20
        case 19: .E85
        case 21: .LAF
        case 22: .CNG
        case 23: .LNG
        default: nil
        }
    }

    /// Whole tenths, or nil for the unavailable sentinels (9999, and 999 as mistyped), values that round to zero or
    /// below, and values beyond `PriceGuard.maxCents` (which would also trap converting to `Int`).
    private static func validTenths(_ wire: Double) -> Int? {
        guard wire.isFinite, wire > 0, wire <= PriceGuard.maxCents * 10 else { return nil }
        let tenths = Int(wire.rounded())
        return tenths <= 0 || tenths == 9_999 || tenths == 999 ? nil : tenths
    }

    // MARK: Wire shapes (field names are the API's)

    private struct BrandsEnvelope: Decodable { var Brands: [Lossy<WireBrand>] }
    private struct WireBrand: Decodable { var BrandId: FlexibleString; var Name: String }

    private struct RegionsEnvelope: Decodable { var GeographicRegions: [Lossy<WireRegion>] }
    private struct WireRegion: Decodable { var GeoRegionLevel: Int; var GeoRegionId: Int; var Name: String }

    private struct SitesEnvelope: Decodable { var S: [Lossy<WireSite>]? }
    private struct WireSite: Decodable {
        var S: FlexibleString
        var A: String?
        var N: String
        var B: FlexibleString?
        var P: FlexibleString?
        var G1: Int?
        var Lat: FlexibleDouble
        var Lng: FlexibleDouble
    }

    private struct PricesEnvelope: Decodable { var SitePrices: [Lossy<WirePrice>]? }
    private struct WirePrice: Decodable {
        var SiteId: FlexibleString
        var FuelId: FlexibleInt
        var TransactionDateUtc: String
        var Price: FlexibleDouble
    }
}

import Fuel
import Foundation

/// WA FuelWatch JSON `GET /api/sites?fuelType=ULP` (PROVIDERS.md §2.3; undocumented): a top-level array of
/// sites, one product each, with a stable numeric `id` (keyed `site-<id>`), `priceToday` and, after about
/// 14:30 WST, `priceTomorrow`. `priceToday` is absent for closed sites.
///
/// The payload carries no timestamps, so the pricing day comes from `fetchedAt`: the WST date of
/// `fetchedAt - 6 h` (a capture at 00:23 WST still shows the previous day's prices; see the history
/// PROVENANCE.md edge captures). Today's prices hold from 06:00 WST that day; `priceTomorrow` is for the next day.
public enum FuelWatchSitesAdapter {
    static let source = "WA FuelWatch /api/sites"

    /// `brands` maps `brandName` codes (`"VIB"`) to names (`"Vibe"`), from `brands(_:)`; unknown codes are kept as is.
    /// `asOf` is 06:00 WST of the pricing day when any price is present, else `fetchedAt`.
    public static func adapt(_ data: Data, brands: [String: String] = [:], fetchedAt: Date) throws(AdapterError) -> Adapted {
        let rows = try JSONPayload.decode([Lossy<WireSite>].self, from: data, source: source, codeKey: "id")
        var tally = AdapterTally()
        let sites = rows.unwrapped(countingFailuresIn: &tally)

        let pricingDay = PerthTime.pricingDay(at: fetchedAt)
        let todayStart = PerthTime.pricingStart(days: pricingDay)
        let tomorrowDay = WireTime.dayString(days: pricingDay + 1)
        var stations: [StationRecord] = []
        var prices: [PriceRecord] = []
        var tomorrow: [TomorrowPriceRecord] = []
        for site in sites {
            let location = Coordinate(latitude: site.address.latitude.value, longitude: site.address.longitude.value)
            guard location.isValid else { tally.record(.malformedRow); continue }
            let key = StationKey(provider: .wa, sourceID: "site-\(site.id.value)")
            let brand = site.brandName.map { brands[$0] ?? $0 } ?? ""
            stations.append(StationRecord(
                key: key, name: site.siteName, brand: brand, address: site.address.line1 ?? "",
                suburb: AddressParser.normalisedSuburb(site.address.location ?? ""), state: .WA,
                postcode: site.address.postCode.map { String(repeating: "0", count: max(0, 4 - $0.value.count)) + $0.value },
                location: location, access: access(site, fetchedAt: fetchedAt)))

            guard let product = (site.product.shortName ?? site.productFuelType).flatMap(FuelWatchProduct.init(shortName:)) else {
                tally.record(.unmappedFuel)
                continue
            }
            if let today = site.product.priceToday.flatMap({ PriceGuard.tenths(cents: $0.value) }) {
                prices.append(PriceRecord(station: key, fuel: product.fuel, price: today, updatedAt: todayStart))
            } else {
                tally.record(.unavailablePrice)
            }
            if let next = site.product.priceTomorrow.flatMap({ PriceGuard.tenths(cents: $0.value) }) {
                tomorrow.append(TomorrowPriceRecord(station: key, fuel: product.fuel, price: next, day: tomorrowDay))
            }
        }
        let update = ProviderUpdate(
            provider: .wa, stations: stations, prices: prices, tomorrow: tomorrow, asOf: prices.isEmpty ? fetchedAt : todayStart)
        return Adapted(update: update, tally: tally)
    }

    /// `GET /api/brands`: `[{"name":"VIB","description":"Vibe",…}]` -> `["VIB": "Vibe"]`.
    public static func brands(_ data: Data) throws(AdapterError) -> [String: String] {
        let rows = try JSONPayload.decode([Lossy<WireBrand>].self, from: data, source: "WA FuelWatch /api/brands").unwrapped().rows
        return Dictionary(rows.map { ($0.name, $0.description ?? $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    // MARK: Wire shapes

    private struct WireSite: Decodable {
        var id: FlexibleString
        var siteName: String
        var address: WireAddress
        var product: WireProduct
        var productFuelType: String?
        var brandName: String?
        var isClosedNow: Lenient<Bool>?
        var operates247: Lenient<Bool>?
        var membershipRequired: Lenient<Bool>?
    }

    /// The site's flags. `isClosedNow` describes the moment of the fetch only; `OpenNow` lets it speak for a
    /// poll interval. `isTruckStop` is per product but describes the site.
    private static func access(_ site: WireSite, fetchedAt: Date) -> StationAccess? {
        let closedNow = site.isClosedNow?.value
        let access = StationAccess(
            open24h: site.operates247?.value, membershipRequired: site.membershipRequired?.value,
            truckStop: site.product.isTruckStop?.value, closedNow: closedNow, observedAt: closedNow == nil ? nil : fetchedAt)
        return access.isEmpty ? nil : access
    }

    private struct WireAddress: Decodable {
        var line1: String?
        var location: String?
        var postCode: FlexibleString?
        var latitude: FlexibleDouble
        var longitude: FlexibleDouble
    }

    private struct WireProduct: Decodable {
        var shortName: String?
        var isTruckStop: Lenient<Bool>?
        var priceToday: FlexibleDouble?
        var priceTomorrow: FlexibleDouble?
    }

    private struct WireBrand: Decodable {
        var name: String
        var description: String?
    }
}

import Fuel
import Foundation

/// NSW FuelCheck `/FuelPriceCheck/v{1,2}/fuel/prices` and `/prices/new` (PROVIDERS.md §1.5), plus the app API's
/// nearby shape. One payload can hold NSW (and ACT) and, in v2, TAS stations; TAS codes collide with NSW codes,
/// so TAS stations are keyed under `.tas` and returned as a separate update.
public enum NSWFuelCheckAdapter {
    /// How to read the zone-less `lastupdated` text.
    public enum TimestampZone: Sendable {
        /// The default. The real v1 sample (fetched 2026-01-15T02:32:51Z per its Postman file name) has its newest
        /// `lastupdated` at `15/01/2026 02:30:53`, two minutes before the fetch; read as Sydney time (AEDT) it would be
        /// 11 hours earlier. The hour-of-day pattern of changes also fits UTC (PROVIDERS.md §1.6). The fixture test
        /// "NSW lastupdated is UTC" pins this.
        case utc
        /// A switch in case v2 or another endpoint turns out to send local wall time.
        case local(TimeZone)
    }

    static let source = "NSW FuelCheck /prices"

    /// Adapts one `/prices` (or `/prices/new` with `isDelta: true`) body. Returns one update per provider present:
    /// `.nsw` first (always, possibly empty), then `.tas` when the payload has TAS rows.
    /// `asOf` is the newest `lastupdated` of a provider's prices, or `fetchedAt` when it has none.
    public static func adapt(
        _ data: Data, isDelta: Bool = false, timestamps: TimestampZone = .utc, fetchedAt: Date
    ) throws(AdapterError) -> [Adapted] {
        let envelope = try JSONPayload.decode(Envelope.self, from: data, source: source, codeKey: "stationcode")
        guard let stationRows = envelope.stations, let priceRows = envelope.prices else {
            throw .unexpectedShape(source: source, detail: "no 'stations' or 'prices' array")
        }
        var tally = AdapterTally()
        let wireStations = stationRows.unwrapped(countingFailuresIn: &tally)
        let wirePrices = priceRows.unwrapped(countingFailuresIn: &tally)

        // A station whose only price rows are `EV` is a charging site (`kind: ev`); one with any fuel row is a fuel
        // station, charger or not.
        var charging = Set<StationKey>(), fuelled = Set<StationKey>()
        for wire in wirePrices {
            let key = StationKey(provider: provider(forState: wire.state), sourceID: wire.stationcode.value)
            if wire.fueltype == "EV" { charging.insert(key) } else { fuelled.insert(key) }
        }

        var stations: [ProviderID: [StationRecord]] = [:]
        var keys = Set<StationKey>()
        for wire in wireStations {
            // A location off the globe passes through: the merge keeps a known station's last good one (its prices
            // still update) and leaves a new station out (`MergeBuilder`).
            var station = record(for: wire)
            let kind: StationKind = charging.contains(station.key) && !fuelled.contains(station.key) ? .ev : .fuel
            let facts = StationFacts(kind: kind, adBlue: wire.isAdBlueAvailable?.value)
            station.facts = facts.isEmpty ? nil : facts
            keys.insert(station.key)
            stations[station.key.provider, default: []].append(station)
        }

        var prices: [ProviderID: [PriceRecord]] = [:]
        let zone = timestamps.fixedZone
        for wire in wirePrices {
            let key = StationKey(provider: provider(forState: wire.state), sourceID: wire.stationcode.value)
            guard let fuel = fuelType(wire.fueltype) else { tally.record(.unmappedFuel); continue }
            guard let price = PriceGuard.tenths(cents: wire.price.value) else { tally.record(.unavailablePrice); continue }
            guard keys.contains(key) || isDelta else { tally.record(.unknownStation); continue }
            guard let updatedAt = date(wire.lastupdated, zone: zone) else { tally.record(.badTimestamp); continue }
            prices[key.provider, default: []].append(
                PriceRecord(station: key, fuel: fuel, price: price, updatedAt: updatedAt))
        }

        let present = Set(stations.keys).union(prices.keys).union([.nsw]).sorted()
        return present.enumerated().map { index, provider in
            let providerPrices = prices[provider] ?? []
            let update = ProviderUpdate(
                provider: provider, stations: stations[provider] ?? [], prices: providerPrices,
                asOf: providerPrices.lazy.map(\.updatedAt).max() ?? fetchedAt, isDelta: isDelta)
            // The tally describes the whole payload; it rides on the first update only, so it is not counted twice.
            return Adapted(update: update, tally: index == 0 ? tally : AdapterTally())
        }
    }

    /// Price-row fuel codes (§1.8). `EV` is not a fuel price; lovs-only combos (`E10-U91`) never map.
    static func fuelType(_ code: String) -> FuelType? {
        switch code {
        case "E94": .E10
        case "E105": .E85
        case "EV": nil
        default: FuelType(rawValue: code)
        }
    }

    private static func provider(forState state: String?) -> ProviderID {
        state?.uppercased() == "TAS" ? .tas : .nsw
    }

    private static func record(for wire: WireStation) -> StationRecord {
        let provider = provider(forState: wire.state)
        let parts = AddressParser.parse(wire.address)
        let state: AustralianState =
            if provider == .tas { .TAS }
            else if parts.state == .ACT || AddressParser.isACTPostcode(parts.postcode) { .ACT }
            else { .NSW }
        return StationRecord(
            key: StationKey(provider: provider, sourceID: wire.code.value), name: wire.name, brand: wire.brand ?? "",
            address: parts.street.isEmpty ? wire.address : parts.street, suburb: parts.suburb, state: state,
            postcode: parts.postcode, location: Coordinate(latitude: wire.location.latitude.value, longitude: wire.location.longitude.value))
    }

    private static func date(_ text: String, zone: TimeZone?) -> Date? {
        guard let naive = WireTime.naiveSeconds(text) else { return nil }
        guard let zone else { return Date(timeIntervalSince1970: naive) }
        // Wall time in `zone`: subtract the offset in force at that wall time (re-checked once across a DST edge).
        let guess = Date(timeIntervalSince1970: naive - TimeInterval(zone.secondsFromGMT(for: Date(timeIntervalSince1970: naive))))
        return Date(timeIntervalSince1970: naive - TimeInterval(zone.secondsFromGMT(for: guess)))
    }

    // MARK: Wire shapes

    private struct Envelope: Decodable {
        var stations: [Lossy<WireStation>]?
        var prices: [Lossy<WirePrice>]?
    }

    private struct WireStation: Decodable {
        var brand: String?
        var code: FlexibleString
        var name: String
        var address: String
        var location: WireLocation
        var state: String?
        var isAdBlueAvailable: Lenient<Bool>?
    }

    private struct WireLocation: Decodable {
        var latitude: FlexibleDouble
        var longitude: FlexibleDouble
    }

    private struct WirePrice: Decodable {
        var stationcode: FlexibleString
        var fueltype: String
        var price: FlexibleDouble
        var lastupdated: String
        var state: String?
    }
}

private extension NSWFuelCheckAdapter.TimestampZone {
    /// nil for UTC (the fast path).
    var fixedZone: TimeZone? {
        switch self {
        case .utc: nil
        case .local(let zone): zone
        }
    }
}

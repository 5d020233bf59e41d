import Fuel
import Foundation

/// VIC Servo Saver / Fair Fuel Open Data `GET /open-data/v1/fuel/prices` (PROVIDERS.md §5).
/// The data is published with a 24-hour delay; `asOf` says so honestly (the newest `updatedAt`, about a day old),
/// and labelling it is the App's concern.
public enum FairFuelAdapter {
    static let source = "VIC Fair Fuel /fuel/prices"

    /// `brands` maps `brandId` to a name, from `brands(_:)`; without it the brand is empty.
    /// Unavailable fuels (`isAvailable:false`, `price:null`) are skipped and counted. `asOf` is the newest price's
    /// `updatedAt`, else `fetchedAt`.
    public static func adapt(_ data: Data, brands: [String: String] = [:], fetchedAt: Date) throws(AdapterError) -> Adapted {
        let envelope = try JSONPayload.decode(Envelope.self, from: data, source: source)
        guard let rows = envelope.fuelPriceDetails else {
            throw .unexpectedShape(source: source, detail: "no 'fuelPriceDetails' array")
        }
        var tally = AdapterTally()
        let details = rows.unwrapped(countingFailuresIn: &tally)

        var stations: [StationRecord] = []
        var prices: [PriceRecord] = []
        stations.reserveCapacity(details.count)
        prices.reserveCapacity(details.count * 5)
        for detail in details {
            let wire = detail.fuelStation
            let location = Coordinate(latitude: wire.location.latitude.value, longitude: wire.location.longitude.value)
            guard location.isValid else { tally.record(.malformedRow); continue }
            let key = StationKey(provider: .vic, sourceID: wire.id)
            let parts = AddressParser.parse(wire.address)
            stations.append(StationRecord(
                key: key, name: wire.name, brand: wire.brandId.flatMap { brands[$0] } ?? "",
                address: parts.street.isEmpty ? wire.address : parts.street, suburb: parts.suburb, state: .VIC,
                postcode: parts.postcode, location: location, access: access(wire.openingHours?.value)))

            let fuelPrices = (detail.fuelPrices ?? []).unwrapped(countingFailuresIn: &tally)
            for row in fuelPrices {
                guard let fuel = fuelType(row.fuelType) else { tally.record(.unmappedFuel); continue }
                guard row.isAvailable != false, let price = row.price.flatMap({ PriceGuard.tenths(cents: $0.value) }) else {
                    tally.record(.unavailablePrice)
                    continue
                }
                // A price without its own stamp takes the station's; a stamp we cannot read is a bad row.
                guard let stamp = row.updatedAt ?? detail.updatedAt, let updatedAt = WireTime.utcDate(stamp) else {
                    tally.record(.badTimestamp)
                    continue
                }
                prices.append(PriceRecord(station: key, fuel: fuel, price: price, updatedAt: updatedAt))
            }
        }
        // Trend points are labelled by the day the capture describes (the day before it), not the newest price's day.
        let update = ProviderUpdate(
            provider: .vic, stations: stations, prices: prices, asOf: prices.lazy.map(\.updatedAt).max() ?? fetchedAt,
            describedDay: HistoryDay.described(capturedAt: fetchedAt, provider: .vic, state: .VIC))
        return Adapted(update: update, tally: tally)
    }

    /// `GET /fuel/reference-data/brands`: `{"brands":[{"id":…,"name":"7-Eleven","type":"major"}]}` -> id: name.
    public static func brands(_ data: Data) throws(AdapterError) -> [String: String] {
        let envelope = try JSONPayload.decode(BrandsEnvelope.self, from: data, source: "VIC Fair Fuel /reference-data/brands")
        return Dictionary(envelope.brands.unwrapped().rows.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
    }

    /// VIC fuel codes (§5, §7).
    static func fuelType(_ code: String) -> FuelType? {
        switch code {
        case "DSL": .DL
        case "PDSL": .PDL
        default: FuelType(rawValue: code)
        }
    }

    // MARK: Wire shapes

    private struct Envelope: Decodable { var fuelPriceDetails: [Lossy<Detail>]? }

    private struct Detail: Decodable {
        var fuelStation: WireStation
        var fuelPrices: [Lossy<WirePrice>]?
        var updatedAt: String?
    }

    private struct WireStation: Decodable {
        var id: String
        var name: String
        var address: String
        var brandId: String?
        var location: WireLocation
        var openingHours: Lenient<[String: WireDay]>?
    }

    /// `{"from":"05:00","to":"21:00","state":"openPartialDay"|"openAllDay"|"closedAllDay"}`
    private struct WireDay: Decodable {
        var from: String?
        var to: String?
        var state: String?
    }

    /// `openingHours` (`mon`…`sun`) as weekly hours; nil when absent or when any day cannot be read (a partial
    /// week would claim closures the provider never stated). Seven `openAllDay` days also say `open_24h`.
    private static func access(_ wire: [String: WireDay]?) -> StationAccess? {
        guard let wire else { return nil }
        var days: [DayHours] = []
        for name in ["mon", "tue", "wed", "thu", "fri", "sat", "sun"] {
            guard let day = wire[name] else { return nil }
            switch day.state {
            case "openAllDay": days.append(.allDay)
            case "closedAllDay": days.append(.closed)
            case "openPartialDay":
                guard let from = day.from.flatMap(minutes), let to = day.to.flatMap(minutes) else { return nil }
                days.append(.open(from: from, to: to))
            default: return nil
            }
        }
        guard let hours = WeeklyHours(days: days) else { return nil }
        return StationAccess(open24h: hours.isAlwaysOpen, hours: hours)
    }

    /// `"HH:mm"` as minutes after midnight.
    private static func minutes(_ text: String) -> Int? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0...24).contains(hour), (0..<60).contains(minute) else { return nil }
        let total = hour * 60 + minute
        return total <= 1_440 ? total : nil
    }

    private struct WireLocation: Decodable {
        var latitude: FlexibleDouble
        var longitude: FlexibleDouble
    }

    private struct WirePrice: Decodable {
        var fuelType: String
        var isAvailable: Bool?
        var price: FlexibleDouble?
        var updatedAt: String?
    }

    private struct BrandsEnvelope: Decodable { var brands: [Lossy<WireBrand>] }
    private struct WireBrand: Decodable { var id: String; var name: String }
}

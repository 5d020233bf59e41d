import Foundation

@testable import Fuel

/// Small builders for domain records, so each test states only what it is about.
enum Fixture {
    static func date(_ text: String) -> Date {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)!
    }

    static let now = date("2026-01-15T02:00:00Z")

    /// `hour:minute` of `day` on Perth's clock (the WA trading day's zone).
    static func perth(_ day: CalendarDay, _ hour: Int, _ minute: Int = 0) -> Date {
        day.instant(hour: hour, minute: minute, in: WATradingDay.zone)
    }

    static func key(_ provider: ProviderID, _ id: String) -> StationKey {
        StationKey(provider: provider, sourceID: id)
    }

    static func station(
        _ provider: ProviderID, _ id: String, name: String? = nil, brand: String = "Ampol",
        state: AustralianState = .NSW, latitude: Double = -33.87, longitude: Double = 151.21
    ) -> StationRecord {
        StationRecord(
            key: key(provider, id), name: name ?? "Station \(id)", brand: brand, address: "1 Main St",
            suburb: "Town", state: state, postcode: "2000",
            location: Coordinate(latitude: latitude, longitude: longitude))
    }

    static func price(
        _ provider: ProviderID, _ id: String, _ tenths: Int, fuel: FuelType = .U91, at: Date = now
    ) -> PriceRecord {
        PriceRecord(station: key(provider, id), fuel: fuel, price: PriceTenths(tenths: tenths), updatedAt: at)
    }

    /// A full update of `count` stations "1"..."count", each selling U91 at `tenths` (+ index).
    static func update(
        _ provider: ProviderID, count: Int, tenths: Int = 1_900, state: AustralianState = .NSW,
        asOf: Date = now, isDelta: Bool = false
    ) -> ProviderUpdate {
        let ids = (1...max(count, 1)).prefix(count).map(String.init)
        return ProviderUpdate(
            provider: provider,
            stations: ids.map { station(provider, $0, state: state) },
            prices: ids.map { price(provider, $0, tenths + Int($0)!, at: asOf) },
            asOf: asOf, isDelta: isDelta)
    }

    /// Merges `update` into `snapshot`, returning the snapshot, registry and report.
    static func merge(
        _ update: ProviderUpdate, into snapshot: Snapshot = .empty, registry: StationRegistry = StationRegistry(),
        source: DataSource = .live, at: Date = now
    ) -> MergeResult {
        snapshot.merging(update, registry: registry, source: source, at: at)
    }

    /// NSW stations 1 and 2 and an ACT station 3 (NSW's feed covers ACT): U91 at 180.0 and 190.5 in NSW, 170.0 in
    /// ACT, and DL 200.0 at station 2, all as of `asOf`. The averages and versus-average tests share it.
    static func twoStatesUpdate(asOf: Date) -> ProviderUpdate {
        ProviderUpdate(
            provider: .nsw,
            stations: [station(.nsw, "1"), station(.nsw, "2"), station(.nsw, "3", state: .ACT)],
            prices: [
                price(.nsw, "1", 1_800, at: asOf), price(.nsw, "2", 1_905, at: asOf),
                price(.nsw, "2", 2_000, fuel: .DL, at: asOf), price(.nsw, "3", 1_700, at: asOf),
            ],
            asOf: asOf)
    }
}

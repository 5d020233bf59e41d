import Foundation

@testable import Fuel

/// Published snapshots for evaluator tests: stations in a row east of Sydney's CBD (and a few in Perth), each
/// price first seen at the snapshot's instant unless said otherwise.
struct AlertWorld {
    struct Price {
        var station: Int
        var tenths: Int
        var fuel: FuelType = .U91
        /// Set this long before the snapshot's instant (stale beyond `PricePolicy.currentMaxAge`).
        var age: TimeInterval = 0
        var tomorrow: Int?
    }

    static func utc(_ text: String) -> Date { try! Date(text, strategy: .iso8601) }

    /// Station `n` (1...): NSW at -33.87, 151.20 + n/100 (about 0.93 km apart), or WA in Perth for 100 and up.
    static func station(_ n: Int, brand: String = "Ampol") -> Station {
        let wa = n >= 100
        return Station(
            id: StationID(n), key: StationKey(provider: wa ? .wa : .nsw, sourceID: "\(n)"), name: "Station \(n)", brand: brand,
            address: "1 Main St", suburb: "Town", state: wa ? .WA : .NSW, postcode: "2000",
            location: wa ? Coordinate(latitude: -31.95, longitude: 115.86 + Double(n - 100) / 100)
                : Coordinate(latitude: -33.87, longitude: 151.20 + Double(n) / 100))
    }

    /// Filler stations (ids 50...69) at 190.0 so every state's plausible band is wide and steady.
    static let filler = (50..<70).map { Price(station: $0, tenths: 1_900) }

    static func snapshot(
        version: UInt64, at instant: Date, _ prices: [Price], brands: [Int: String] = [:], tomorrowDay: CalendarDay? = nil
    ) -> Snapshot {
        var byStation: [Int: [StationPrice]] = [:]
        for price in prices + filler {
            let tomorrow = price.tomorrow.flatMap { tenths in tomorrowDay.map { TomorrowPrice(price: PriceTenths(tenths: tenths), day: $0.description) } }
            byStation[price.station, default: []].append(StationPrice(
                fuel: price.fuel, price: PriceTenths(tenths: price.tenths), updatedAt: instant.addingTimeInterval(-price.age),
                tomorrow: tomorrow, seenAt: instant))
        }
        let entries = byStation.map { StationEntry(station: station($0.key, brand: brands[$0.key] ?? "Ampol"), prices: $0.value) }
        let waTomorrow = tomorrowDay.map { TomorrowPublication(day: $0, heldSince: instant) }
        return Snapshot(version: version, changedAt: instant, entries: entries, statuses: [
            ProviderStatus(provider: .nsw, source: .live, asOf: instant),
            ProviderStatus(provider: .wa, source: .live, asOf: instant, tomorrow: waTomorrow),
        ])
    }

    /// The alert `id` on device 7 in Sydney's zone.
    static func alert(
        _ id: Int64, _ kind: AlertDefinition.Kind, _ target: AlertDefinition.Target, threshold: Int? = nil, change: Int? = nil,
        delivery: AlertDefinition.Delivery = .immediate, quiet: QuietHours? = nil, zone: String = "Australia/Sydney"
    ) -> WatchedAlert {
        WatchedAlert(id: id, deviceID: 7, definition: AlertDefinition(
            kind: kind, fuel: .U91, target: target, threshold: threshold.map { PriceTenths(tenths: $0) },
            change: change.map { PriceTenths(tenths: $0) }, delivery: delivery, quietHours: quiet), zone: TimeZone(identifier: zone)!)
    }

    /// Evaluates `next` after `previous` and returns the outcome with the states folded in.
    static func step(
        _ alerts: [WatchedAlert], from previous: Snapshot, to next: Snapshot, states: inout AlertStates, now: Date? = nil,
        announced: inout String?
    ) -> AlertOutcome {
        var evaluator = AlertEvaluator(index: AlertIndex(alerts), tomorrowAnnounced: announced)
        let outcome = evaluator.evaluate(AlertPoll(index: FuelIndex(snapshot: next), after: previous, now: now ?? next.changedAt!), states: states)
        states.merge(outcome.states) { $1 }
        if let day = outcome.announcedTomorrow { announced = day }
        return outcome
    }

    static func step(_ alerts: [WatchedAlert], from previous: Snapshot, to next: Snapshot, states: inout AlertStates, now: Date? = nil) -> AlertOutcome {
        var announced: String?
        return step(alerts, from: previous, to: next, states: &states, now: now, announced: &announced)
    }
}

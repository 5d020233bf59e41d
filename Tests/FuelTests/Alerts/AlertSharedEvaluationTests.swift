import Foundation
import Testing
import TestSupport

@testable import Fuel

/// Evaluating many alerts together (one cheapest search per distinct question, `near` alerts visited once per poll)
/// must decide exactly what evaluating each alert on its own decides: the same decisions and the same states.
struct AlertSharedEvaluationTests {
    static let t0 = Date(timeIntervalSince1970: 1_796_000_000)
    static let cities = [(-33.87, 151.21), (-33.80, 151.00), (-37.81, 144.96), (-31.95, 115.86)]
    static let fuels: [FuelType] = [.U91, .E10, .DL]

    /// 800 stations around four cities (some members-only), three fuels each, and a next snapshot where about one
    /// price in six changed (drops and rises of 0.1 to 20 c/L).
    static func world(seed: UInt64) -> (before: Snapshot, after: Snapshot) {
        var random = SplitMix64(seed: seed)
        var stations: [Station] = []
        for n in 1...800 {
            let city = cities[n % cities.count]
            let state: AustralianState = city.1 < 120 ? .WA : city.0 < -37 ? .VIC : .NSW
            let provider: ProviderID = state == .WA ? .wa : state == .VIC ? .vic : .nsw
            stations.append(Station(
                id: StationID(n), key: StationKey(provider: provider, sourceID: "\(n)"), name: "Station \(n)", brand: n % 17 == 0 ? "Costco" : "Ampol",
                address: "1 Main St", suburb: "Town", state: state, postcode: "2000",
                location: Coordinate(latitude: city.0 + Double.random(in: -0.3...0.3, using: &random),
                                     longitude: city.1 + Double.random(in: -0.3...0.3, using: &random))))
        }
        var before: [StationEntry] = []
        var after: [StationEntry] = []
        let t1 = t0.addingTimeInterval(300)
        for station in stations {
            var old: [StationPrice] = []
            var new: [StationPrice] = []
            for fuel in fuels {
                let tenths = 1_800 + Int(random.next() % 200) + (fuel == .DL ? 150 : 0)
                old.append(StationPrice(fuel: fuel, price: PriceTenths(tenths: tenths), updatedAt: t0, seenAt: t0))
                if random.next() % 6 == 0 {
                    let move = Int(random.next() % 200) + 1
                    let next = tenths + (random.next() % 3 == 0 ? move : -move)
                    new.append(StationPrice(fuel: fuel, price: PriceTenths(tenths: next), updatedAt: t1, seenAt: t1))
                } else {
                    new.append(old.last!)
                }
            }
            before.append(StationEntry(station: station, prices: old))
            after.append(StationEntry(station: station, prices: new))
        }
        let statuses = { (at: Date) in [ProviderID.nsw, .vic, .wa].map { ProviderStatus(provider: $0, source: .live, asOf: at) } }
        return (Snapshot(version: 1, changedAt: t0, entries: before, statuses: statuses(t0)),
                Snapshot(version: 2, changedAt: t1, entries: after, statuses: statuses(t1)))
    }

    /// 480 alerts of every price kind on devices in three zones, half of the `cheapest_changed` ones asking one of
    /// a few shared questions (a suburb's centre at a preset radius), the rest their own.
    static func alerts(over snapshot: Snapshot, seed: UInt64) -> [WatchedAlert] {
        var random = SplitMix64(seed: seed)
        let zones = ["Australia/Sydney", "Australia/Perth", "Australia/Melbourne"].map { TimeZone(identifier: $0)! }
        let shared = (0..<12).map { n in (snapshot.entries[n * 37].station.location, [2.0, 5.0, 10.0, 25.0][n % 4]) }
        return (1...480).map { n in
            let home = snapshot.entries[Int(random.next() % UInt64(snapshot.entries.count))].station.location
            let point = Coordinate(latitude: home.latitude + Double.random(in: -0.02...0.02, using: &random),
                                   longitude: home.longitude + Double.random(in: -0.02...0.02, using: &random))
            let radius = Double.random(in: 1...25, using: &random)
            let fuel = fuels[Int(random.next() % 3)]
            let favourites = (0..<(1 + Int(random.next() % 4))).map { _ in snapshot.entries[Int(random.next() % UInt64(snapshot.entries.count))].id }
            let definition: AlertDefinition
            switch n % 8 {
            case 0, 1: definition = AlertDefinition(kind: .priceBelow, fuel: fuel, target: .stations(favourites), threshold: PriceTenths(tenths: 1_820 + Int(random.next() % 60)))
            case 2: definition = AlertDefinition(kind: .priceDrop, fuel: fuel, target: .stations(favourites), change: PriceTenths(tenths: 10 + Int(random.next() % 40)))
            case 3: definition = AlertDefinition(kind: .priceRise, fuel: fuel, target: .near(point, radiusKm: radius), change: PriceTenths(tenths: 20))
            case 4: definition = AlertDefinition(kind: .priceBelow, fuel: fuel, target: .near(point, radiusKm: radius), threshold: PriceTenths(tenths: 1_850))
            case 5: definition = AlertDefinition(kind: .cheapestChanged, fuel: fuel, target: .near(point, radiusKm: radius), change: PriceTenths(tenths: 10))
            case 6:
                let (center, preset) = shared[Int(random.next() % UInt64(shared.count))]
                definition = AlertDefinition(kind: .cheapestChanged, fuel: fuel, target: .near(center, radiusKm: preset), change: PriceTenths(tenths: 15))
            default: definition = AlertDefinition(kind: .cheapestChanged, fuel: fuel, target: .stations(favourites), change: PriceTenths(tenths: 10))
            }
            var alert = WatchedAlert(id: Int64(n), deviceID: Int64(n / 3), definition: definition, zone: zones[n % 3])
            if n % 5 == 0 { alert.definition.quietHours = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!) }
            if n % 7 == 0 { alert.definition.delivery = .daily(at: TimeOfDay("07:30")!) }
            return alert
        }
    }

    @Test func sharedEvaluationDecidesExactlyWhatEachAlertAloneDecides() {
        let (before, after) = Self.world(seed: 7)
        let alerts = Self.alerts(over: after, seed: 11)
        // Warm states: every alert seeded on the first snapshot, as the evaluator does when an alert is created.
        var states: AlertStates = [:]
        let beforeIndex = FuelIndex(snapshot: before)
        let seeding = AlertEvaluator(index: AlertIndex(alerts))
        for alert in alerts { states.merge(seeding.seed(alert.id, index: beforeIndex, now: Self.t0).states) { $1 } }

        let poll = AlertPoll(index: FuelIndex(snapshot: after), after: before, now: Self.t0.addingTimeInterval(300))
        var evaluator = AlertEvaluator(index: AlertIndex(alerts))
        let together = evaluator.evaluate(poll, states: states)
        var alone = AlertOutcome()
        for alert in alerts {
            var single = AlertEvaluator(index: AlertIndex([alert]))
            let outcome = single.evaluate(poll, states: states)
            alone.decisions += outcome.decisions
            alone.states.merge(outcome.states) { $1 }
        }
        #expect(poll.changes.count > 250)
        #expect(together.decisions.count > 100, "a test that decides nothing proves nothing")
        #expect(Set(together.decisions.map(\.alertID)).count > 100)
        #expect(together.decisions.contains { $0.summaryGroup != nil } && together.decisions.contains { $0.deliverAfter != nil })
        #expect(together.decisions.sorted { $0.key < $1.key } == alone.decisions.sorted { $0.key < $1.key })
        #expect(together.states == alone.states)
    }

    @Test func alertsAskingTheSameQuestionShareOneSearch() {
        let (before, after) = Self.world(seed: 7)
        let center = after.entries[0].station.location
        let alerts = (1...50).map { n in
            WatchedAlert(id: Int64(n), deviceID: Int64(n), definition: AlertDefinition(
                kind: .cheapestChanged, fuel: .U91, target: .near(center, radiusKm: 10), change: PriceTenths(tenths: 10)),
                zone: TimeZone(identifier: "Australia/Sydney")!)
        }
        let poll = AlertPoll(index: FuelIndex(snapshot: after), after: before, now: Self.t0.addingTimeInterval(300))
        var memo = AlertPollMemo(poll)
        let evaluator = AlertEvaluator(index: AlertIndex(alerts))
        var outcome = AlertOutcome()
        for slot in 0..<50 { evaluator.evaluateCheapest(slot, poll: poll, states: [:], memo: &memo, into: &outcome) }
        #expect(memo.searches == 1)
        #expect(Set(outcome.states.values).count == 1, "every alert sees the same cheapest station and price")
    }
}

import Foundation
import Testing
import TestSupport

@testable import Fuel

/// An evaluator holding each `near` `cheapest_changed` answer across polls (`HeldCheapest`) must decide exactly what
/// an evaluator searching every area decides, poll after poll, whatever moved: prices up and down, stations closing
/// and reopening with time, prices going stale or implausible, a provider turning to sample data, stations coming
/// and going, alerts changing.
struct HeldCheapestTests {
    typealias W = AlertWorld
    static let t0 = W.utc("2026-12-01T03:00:00Z")
    static let fuels: [FuelType] = [.U91, .E10]

    /// What one station publishes in a step of the random world.
    struct Published {
        var station: Station
        var prices: [FuelType: (tenths: Int, updatedAt: Date, seenAt: Date)]
    }

    @Test(arguments: [1, 2, 3] as [UInt64])
    func randomPollsDecideWhatSearchingEveryAreaDecides(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        // Stations 1-90 around Sydney (NSW), 101-160 around Perth (WA, which publishes closed-now observations).
        var world: [Int: Published] = [:]
        func make(_ n: Int) -> Published {
            let wa = n > 100
            let center = wa ? (-31.95, 115.86) : (-33.87, 151.21)
            let station = Station(
                id: StationID(n), key: StationKey(provider: wa ? .wa : .nsw, sourceID: "\(n)"), name: "Station \(n)", brand: n % 23 == 0 ? "Costco" : "Ampol",
                address: "1 Main St", suburb: "Town", state: wa ? .WA : .NSW, postcode: "2000",
                location: Coordinate(latitude: center.0 + Double.random(in: -0.15...0.15, using: &random),
                                     longitude: center.1 + Double.random(in: -0.15...0.15, using: &random)))
            var prices: [FuelType: (tenths: Int, updatedAt: Date, seenAt: Date)] = [:]
            for fuel in Self.fuels { prices[fuel] = (1_800 + Int(random.next() % 60), Self.t0, Self.t0) }
            return Published(station: station, prices: prices)
        }
        for n in Array(1...90) + Array(101...160) { world[n] = make(n) }
        var sample = false
        func snapshot(_ version: UInt64, at instant: Date) -> Snapshot {
            let entries = world.keys.sorted().map { n in
                let published = world[n]!
                return StationEntry(station: published.station, prices: Self.fuels.compactMap { fuel in
                    published.prices[fuel].map { StationPrice(fuel: fuel, price: PriceTenths(tenths: $0.tenths), updatedAt: $0.updatedAt, seenAt: $0.seenAt) }
                })
            }
            return Snapshot(version: version, changedAt: instant, entries: entries, statuses: [
                ProviderStatus(provider: .nsw, source: .live, asOf: instant), ProviderStatus(provider: .wa, source: sample ? .sample : .live, asOf: instant),
            ])
        }
        var alerts: [WatchedAlert] = (1...120).map { n in
            let home = world[n % 2 == 0 ? 1 + n % 90 : 101 + n % 60]!.station.location
            let point = Coordinate(latitude: home.latitude + Double.random(in: -0.05...0.05, using: &random),
                                   longitude: home.longitude + Double.random(in: -0.05...0.05, using: &random))
            let radius = n % 10 == 0 ? 0.5 : Double.random(in: 1...25, using: &random)
            return WatchedAlert(id: Int64(n), deviceID: Int64(n), definition: AlertDefinition(
                kind: .cheapestChanged, fuel: Self.fuels[n % 2], target: .near(point, radiusKm: radius), change: PriceTenths(tenths: 5)),
                zone: TimeZone(identifier: n % 2 == 0 ? "Australia/Sydney" : "Australia/Perth")!)
        }
        var holding = AlertEvaluator(index: AlertIndex(alerts))
        var states: AlertStates = [:]
        var instant = Self.t0
        var previous = snapshot(1, at: instant)
        var (decisions, searches, searched) = (0, 0, 0)
        for version in UInt64(2)...40 {
            instant += TimeInterval(300 + Int(random.next() % 2_400)) // some closed-now observations lapse in between
            for n in world.keys.sorted() {
                for fuel in Self.fuels where random.next() % 4 == 0 {
                    let old = world[n]!.prices[fuel]!.tenths
                    let roll = random.next() % 40
                    let tenths = roll == 0 ? 600 : roll == 1 ? old : max(1_500, old + Int(random.next() % 81) - 45) // implausible, same, or a move
                    let updatedAt = roll == 2 ? instant - PricePolicy.currentMaxAge - 60 : instant // stale, or fresh
                    world[n]!.prices[fuel] = (tenths, updatedAt, instant)
                }
                if n > 100, random.next() % 10 == 0 {
                    world[n]!.station.record.access = StationAccess(closedNow: random.next() % 4 != 0, observedAt: instant)
                }
            }
            if random.next() % 8 == 0 { sample.toggle() }
            if random.next() % 10 == 0 { // a station leaves or comes back: every slot may move
                let n = Int(random.next() % 90) + 1
                if world[n] == nil { world[n] = make(n) } else { world[n] = nil }
            }
            if random.next() % 5 == 0 { // an alert is changed in place: its slot now asks another question
                let id = Int64(random.next() % 120) + 1
                var alert = alerts[Int(id) - 1]
                if case .near(let point, let radius) = alert.definition.target {
                    alert.definition.target = .near(Coordinate(latitude: point.latitude + 0.01, longitude: point.longitude), radiusKm: radius + 1)
                }
                alerts[Int(id) - 1] = alert
                holding.index.upsert(alert)
            }
            let next = snapshot(version, at: instant)
            // Now and then a poll is skipped: the next one's changes are not contiguous with the last evaluated.
            if random.next() % 7 == 0 { continue }
            let poll = AlertPoll(index: FuelIndex(snapshot: next), after: previous, now: instant)
            var searching = AlertEvaluator(index: AlertIndex(alerts))
            let expected = searching.evaluate(poll, states: states)
            let got = holding.evaluate(poll, states: states)
            #expect(got.decisions == expected.decisions, "version \(version)")
            #expect(got.states == expected.states, "version \(version)")
            states.merge(expected.states) { $1 }
            previous = next
            decisions += expected.decisions.count
            searches += holding.lastSearches
            searched += searching.lastSearches
        }
        #expect(decisions > 60, "a test that decides nothing proves nothing")
        #expect(searches < searched / 2, "the held answers spare most searches (\(searches) of \(searched))")
    }

    // MARK: - Each case, both sides

    let home = Coordinate(latitude: -33.87, longitude: 151.2)
    let fixedT0 = W.utc("2026-12-01T03:00:00Z")

    /// Station `n` sits n × 0.93 km east of `home`; the alert's 5 km reach stations 1-5.
    func alert(_ id: Int64 = 1, radius: Double = 5) -> WatchedAlert {
        W.alert(id, .cheapestChanged, .near(home, radiusKm: radius), change: 20)
    }

    /// Evaluates each snapshot after the one before with one evaluator, returning each poll's (station, price)
    /// area state and searches, and checks it against a fresh evaluator's each time.
    func run(_ snapshots: [Snapshot], alerts: [WatchedAlert]? = nil, replacing: WatchedAlert? = nil, at step: Int = -1) -> [(AlertState?, Int)] {
        var evaluator = AlertEvaluator(index: AlertIndex(alerts ?? [alert()]))
        var states: AlertStates = [:]
        var seen: [(AlertState?, Int)] = []
        for (number, pair) in zip(snapshots, snapshots.dropFirst()).enumerated() {
            if number == step, let replacing { evaluator.index.upsert(replacing) }
            let poll = AlertPoll(index: FuelIndex(snapshot: pair.1), after: pair.0, now: pair.1.changedAt!)
            var fresh = AlertEvaluator(index: evaluator.index)
            let expected = fresh.evaluate(poll, states: states)
            let outcome = evaluator.evaluate(poll, states: states)
            #expect(outcome == expected)
            states.merge(outcome.states) { $1 }
            seen.append((states[.area(1)], evaluator.lastSearches))
        }
        return seen
    }

    func state(_ station: Int, _ tenths: Int) -> AlertState {
        AlertState(armed: true, reference: PriceTenths(tenths: tenths), referenceStation: StationID(station))
    }

    func snap(_ version: UInt64, _ prices: [W.Price], minutes: Double? = nil, brands: [Int: String] = [:]) -> Snapshot {
        W.snapshot(version: version, at: fixedT0 + (minutes ?? Double(version)) * 60, prices, brands: brands)
    }

    @Test func aCheaperStationElsewhereBecomesTheAnswerWithoutASearchAndADearerOneDoesNot() {
        func prices(_ tenths: [Int]) -> [W.Price] { tenths.enumerated().map { W.Price(station: $0.offset + 1, tenths: $0.element) } }
        let seen = run([snap(1, prices([1_800, 1_810, 1_820, 1_830])), snap(2, prices([1_800, 1_810, 1_820, 1_825])),
                        snap(3, prices([1_800, 1_790, 1_820, 1_825])), snap(4, prices([1_800, 1_790, 1_795, 1_825]))])
        #expect(seen.map(\.0) == [state(1, 1_800), state(2, 1_790), state(2, 1_790)])
        #expect(seen.map(\.1) == [1, 0, 0])
    }

    @Test func anEqualPriceNearerWinsAndAnEqualPriceFurtherDoesNot() {
        func prices(_ tenths: [Int]) -> [W.Price] { zip([1, 2, 4, 5], tenths).map { W.Price(station: $0.0, tenths: $0.1) } }
        let seen = run([snap(1, prices([1_850, 1_800, 1_810, 1_840])), snap(2, prices([1_850, 1_800, 1_810, 1_830])),
                        snap(3, prices([1_850, 1_800, 1_800, 1_830])), snap(4, prices([1_800, 1_800, 1_800, 1_830]))])
        // Station 4 ties station 2 but is further: 2 stays. Station 1 ties and is nearer: it is the cheapest now.
        #expect(seen.map(\.0) == [state(2, 1_800), state(2, 1_800), state(1, 1_800)])
        #expect(seen.map(\.1) == [1, 0, 0])
    }

    @Test func theHeldCheapestFallingStaysWithoutASearchAndRisingSearches() {
        let seen = run([snap(1, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_810)]),
                        snap(2, [.init(station: 1, tenths: 1_790), .init(station: 2, tenths: 1_810)]),
                        snap(3, [.init(station: 1, tenths: 1_780), .init(station: 2, tenths: 1_810)]),
                        snap(4, [.init(station: 1, tenths: 1_820), .init(station: 2, tenths: 1_810)])])
        #expect(seen.map(\.1) == [1, 0, 1])
        #expect(seen.last?.0?.referenceStation == StationID(2))
    }

    @Test func theHeldCheapestGoingStaleImplausibleOrMembersOnlySearches() {
        let before: [W.Price] = [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_810)]
        let moved = snap(2, [.init(station: 1, tenths: 1_790), .init(station: 2, tenths: 1_810)])
        let kept = snap(3, [.init(station: 1, tenths: 1_790), .init(station: 2, tenths: 1_808)])
        for gone in [snap(4, [.init(station: 1, tenths: 1_790, age: PricePolicy.currentMaxAge + 60), .init(station: 2, tenths: 1_805)]),
                     snap(4, [.init(station: 1, tenths: 600), .init(station: 2, tenths: 1_805)]),
                     snap(4, [.init(station: 1, tenths: 1_790), .init(station: 2, tenths: 1_805)], brands: [1: "Costco"])] {
            let seen = run([snap(1, before), moved, kept, gone])
            #expect(seen.map(\.1) == [1, 0, 1])
            #expect(seen.last?.0 == state(2, 1_805))
        }
    }

    @Test func aVanishedStationForgetsEveryHold() {
        let seen = run([snap(1, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_810)]),
                        snap(2, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_805)]),
                        snap(3, [.init(station: 2, tenths: 1_804)])])
        #expect(seen.map(\.1) == [1, 1])
        #expect(seen.last?.0 == state(2, 1_804))
    }

    @Test func anAlertChangedInPlaceIsSearchedAgain() {
        let prices: [W.Price] = [.init(station: 1, tenths: 1_800), .init(station: 3, tenths: 1_790)]
        let seen = run([snap(1, [.init(station: 1, tenths: 1_801), .init(station: 3, tenths: 1_795)]), snap(2, prices),
                        snap(3, [.init(station: 1, tenths: 1_799), .init(station: 3, tenths: 1_790)])],
                       alerts: [alert(radius: 2)], replacing: alert(radius: 5), at: 1)
        // Within 2 km only station 1; the same alert widened to 5 km reaches station 3, cheaper.
        #expect(seen.map(\.1) == [1, 1])
        #expect(seen.last?.0?.referenceStation == StationID(3))
    }

    /// A closed-now observation lapses with time, so a station reopens with no price of its own changing: the next
    /// poll's comparison of eligible prices offers it to the holds, and it wins where it is cheapest.
    @Test func aStationReopeningWithTimeIsOfferedWithoutAPriceChange() {
        let closed = StationAccess(closedNow: true, observedAt: fixedT0)
        func perth(_ version: UInt64, minutes: Double, _ tenths: Int, access: StationAccess?) -> Snapshot {
            var snapshot = W.snapshot(version: version, at: fixedT0 + minutes * 60, [.init(station: 100, tenths: 1_700), .init(station: 101, tenths: tenths)])
            let entries = snapshot.entries.map { entry in
                var entry = entry
                if entry.id == StationID(100) { entry.station.record.access = access }
                return entry
            }
            snapshot = Snapshot(version: version, changedAt: snapshot.changedAt, entries: entries, statuses: snapshot.statuses)
            return snapshot
        }
        let alert = W.alert(1, .cheapestChanged, .near(W.station(100).location, radiusKm: 5), change: 20, zone: "Australia/Perth")
        let seen = run([perth(1, minutes: 0, 1_800, access: closed), perth(2, minutes: 1, 1_790, access: closed),
                        perth(3, minutes: 40, 1_780, access: closed), perth(4, minutes: 41, 1_770, access: closed)], alerts: [alert])
        // Closed at minute 1 (station 101 is the cheapest); the observation has lapsed by minute 40: station 100 is.
        #expect(seen.map(\.0?.referenceStation) == [StationID(101), StationID(100), StationID(100)])
        #expect(seen.map(\.1) == [1, 0, 0])
    }
}

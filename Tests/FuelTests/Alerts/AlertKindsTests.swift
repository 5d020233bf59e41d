import Foundation
import Testing

@testable import Fuel

/// `cheapest_changed`, `wa_tomorrow` and when decisions may be delivered.
struct AlertKindsTests {
    typealias W = AlertWorld
    let t0 = W.utc("2026-12-01T03:00:00Z") // 14:00 AEDT, 11:00 AWST
    let home = Coordinate(latitude: -33.87, longitude: 151.22)

    @Test func theCheapestMovingToAnotherStationFiresAndAnEqualReadingDoesNot() {
        let alert = W.alert(1, .cheapestChanged, .near(home, radiusKm: 5), change: 20)
        var states: AlertStates = [:]
        let first = W.snapshot(version: 1, at: t0, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_850)])
        // The first reading sets the reference without a push.
        let second = W.snapshot(version: 2, at: t0 + 60, [.init(station: 1, tenths: 1_799), .init(station: 2, tenths: 1_850)])
        #expect(W.step([alert], from: first, to: second, states: &states).decisions.isEmpty)
        #expect(states[.area(1)] == AlertState(armed: true, reference: PriceTenths(tenths: 1_799), referenceStation: 1))
        let third = W.snapshot(version: 3, at: t0 + 120, [.init(station: 1, tenths: 1_799), .init(station: 2, tenths: 1_790)])
        let moved = W.step([alert], from: second, to: third, states: &states).decisions
        #expect(moved.map(\.station) == [2])
        #expect(moved.first?.message == "Cheapest U91 near you is now Station 2 at 179.0 c/L")
        #expect(moved.first?.key == "a1.cheapest.U91.v3")
    }

    @Test func theCheapestDroppingByTheChangeFiresAndByLessDoesNot() {
        let alert = W.alert(1, .cheapestChanged, .near(home, radiusKm: 5), change: 20)
        var states: AlertStates = [.area(1): AlertState(reference: PriceTenths(tenths: 1_800), referenceStation: 1)]
        let first = W.snapshot(version: 1, at: t0, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_850)])
        let small = W.snapshot(version: 2, at: t0 + 60, [.init(station: 1, tenths: 1_781), .init(station: 2, tenths: 1_850)])
        #expect(W.step([alert], from: first, to: small, states: &states).decisions.isEmpty, "1.9 c/L is less than 2.0")
        let enough = W.snapshot(version: 3, at: t0 + 120, [.init(station: 1, tenths: 1_780), .init(station: 2, tenths: 1_850)])
        #expect(W.step([alert], from: small, to: enough, states: &states).decisions.first?.message == "Cheapest U91 near you dropped 2.0 c/L to 178.0 c/L")
    }

    @Test func aNearAlertMeetsChangesInEveryGridCellItsCircleTouches() {
        // 151.25 is a cell boundary (AlertGridCell.degrees 0.25): the centre's cell holds station 4, the next one 6.
        let centre = Coordinate(latitude: -33.87, longitude: 151.245)
        #expect(AlertGridCell(centre) != AlertGridCell(W.station(6).location))
        let below = W.alert(1, .priceBelow, .near(centre, radiusKm: 2), threshold: 1_850)
        let cheapest = W.alert(2, .cheapestChanged, .near(centre, radiusKm: 2), change: 20)
        var states: AlertStates = [.area(2): AlertState(reference: PriceTenths(tenths: 1_880), referenceStation: 4)]
        let first = W.snapshot(version: 1, at: t0, [.init(station: 4, tenths: 1_880), .init(station: 6, tenths: 1_900)])
        let second = W.snapshot(version: 2, at: t0 + 60, [.init(station: 4, tenths: 1_880), .init(station: 6, tenths: 1_800)])
        let decisions = W.step([below, cheapest], from: first, to: second, states: &states).decisions
        #expect(decisions.map(\.alertID).sorted() == [1, 2])
        #expect(decisions.map(\.station) == [6, 6])
    }

    /// The haversine circle is wider in longitude than r / (R cos(latitude)) (poleward of its centre): a station
    /// just inside 25 km, due east, lies in a cell that the narrower span stopped short of.
    @Test func aNearAlertsCellsCoverEveryPointWithinItsRadius() {
        let centre = Coordinate(latitude: -33.87, longitude: 150.9792195387)
        let station = Coordinate(latitude: -33.87, longitude: 151.25)
        #expect(centre.distanceKm(to: station) <= 25)
        #expect(AlertGridCell.covering(centre, radiusKm: 25).contains(AlertGridCell(station)))
        // Points on each circle's rim all round, centres from Hobart to Cape York, each centre off the grid's lines.
        for latitude in stride(from: -43.9, through: -10.1, by: 1.3) {
            for radius in [2.0, 5, 10, 25] {
                let centre = Coordinate(latitude: latitude, longitude: 150.9792195387)
                let covering = AlertGridCell.covering(centre, radiusKm: radius)
                for step in 0..<96 {
                    let bearing = Double(step) * .pi / 48
                    let degrees = radius / Coordinate.kmPerDegree
                    let point = Coordinate(latitude: latitude + degrees * cos(bearing), longitude: centre.longitude + degrees * sin(bearing) / centre.cosLatitude)
                    guard centre.distanceKm(to: point) <= radius else { continue }
                    #expect(covering.contains(AlertGridCell(point)), "\(centre) \(radius) km: \(point)")
                }
            }
        }
    }

    /// A mixed deployment near a border (one provider live, the neighbour's on sample data): a sample station
    /// cheaper than every live one is left out of the area's search, so the live cheapest still speaks.
    @Test func aCheaperSampleStationDoesNotSilenceTheLiveCheapest() {
        let centre = Coordinate(latitude: -33.87, longitude: 151.215)
        let alert = W.alert(1, .cheapestChanged, .near(centre, radiusKm: 5), change: 20)
        func mixed(_ version: UInt64, _ live: [W.Price]) -> Snapshot {
            let instant = t0 + Double(version) * 60
            let base = W.snapshot(version: version, at: instant, live)
            let across = Station(id: 3, key: StationKey(provider: .wa, sourceID: "3"), name: "Sample 3", brand: "Ampol", address: "3 Main St",
                                 suburb: "Town", state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.87, longitude: 151.225))
            let sample = StationEntry(station: across, prices: [StationPrice(fuel: .U91, price: PriceTenths(tenths: 1_700), updatedAt: instant, seenAt: instant)])
            return Snapshot(version: version, changedAt: instant, entries: base.entries + [sample], statuses: [
                ProviderStatus(provider: .nsw, source: .live, asOf: instant), ProviderStatus(provider: .wa, source: .sample, asOf: instant),
            ])
        }
        var states: AlertStates = [.area(1): AlertState(reference: PriceTenths(tenths: 1_800), referenceStation: 1)]
        let first = mixed(1, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_810)])
        let second = mixed(2, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_790)])
        let decisions = W.step([alert], from: first, to: second, states: &states).decisions
        #expect(decisions.map(\.station) == [2], "the live cheapest moved to station 2")
        #expect(decisions.first?.message == "Cheapest U91 near you is now Station 2 at 179.0 c/L")
    }

    @Test func aNearAlertMeetsChangesNorthAndSouthOfItsCentreWithinItsRadius() {
        // Station 4 is at -33.87, 151.24: 0.9 km south of the first centre, 0.9 km north of the second, and 2.2 km
        // from the third, beyond its 2 km.
        let north = W.alert(1, .priceBelow, .near(Coordinate(latitude: -33.862, longitude: 151.24), radiusKm: 2), threshold: 1_850)
        let south = W.alert(2, .priceBelow, .near(Coordinate(latitude: -33.878, longitude: 151.24), radiusKm: 2), threshold: 1_850)
        let far = W.alert(3, .priceBelow, .near(Coordinate(latitude: -33.89, longitude: 151.24), radiusKm: 2), threshold: 1_850)
        var states: AlertStates = [:]
        let first = W.snapshot(version: 1, at: t0, [.init(station: 4, tenths: 1_900)])
        let second = W.snapshot(version: 2, at: t0 + 60, [.init(station: 4, tenths: 1_800)])
        let decisions = W.step([north, south, far], from: first, to: second, states: &states).decisions
        #expect(decisions.map(\.alertID).sorted() == [1, 2])
    }

    @Test func aMembersOnlyStationIsNeverTheCheapest() {
        let alert = W.alert(1, .cheapestChanged, .near(home, radiusKm: 5), change: 20)
        var states: AlertStates = [.area(1): AlertState(reference: PriceTenths(tenths: 1_800), referenceStation: 1)]
        let first = W.snapshot(version: 1, at: t0, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_850)], brands: [2: "Costco"])
        let second = W.snapshot(version: 2, at: t0 + 60, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_700)], brands: [2: "Costco"])
        #expect(W.step([alert], from: first, to: second, states: &states).decisions.isEmpty)
    }

    @Test func quietHoursAcrossMidnightDeferTheDecisionToTheirLocalEnd() {
        let night = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!)
        let alert = W.alert(1, .priceBelow, .stations([1]), threshold: 1_850, quiet: night)
        var states: AlertStates = [:]
        let late = W.utc("2026-12-01T12:59:00Z") // 23:59 AEDT
        let first = W.snapshot(version: 1, at: late, [.init(station: 1, tenths: 1_900)])
        let second = W.snapshot(version: 2, at: late + 60, [.init(station: 1, tenths: 1_800)])
        #expect(W.step([alert], from: first, to: second, states: &states).decisions.first?.deliverAfter == W.utc("2026-12-01T20:00:00Z"))
        // 21:59 AEDT is before the quiet hours: delivered at once.
        var fresh: AlertStates = [:]
        let evening = W.snapshot(version: 1, at: W.utc("2026-12-01T10:58:00Z"), [.init(station: 1, tenths: 1_900)])
        let early = W.snapshot(version: 2, at: W.utc("2026-12-01T10:59:00Z"), [.init(station: 1, tenths: 1_800)])
        #expect(W.step([alert], from: evening, to: early, states: &fresh).decisions.first.map { $0.deliverAfter == nil } == true)
    }

    @Test func quietHoursEndAtLocalSevenOnTheNightSydneySpringsForward() {
        let night = QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay("07:00")!)
        let alert = W.alert(1, .priceBelow, .stations([1]), threshold: 1_850, quiet: night)
        var states: AlertStates = [:]
        let evening = W.utc("2026-10-03T13:00:00Z") // 23:00 AEST; clocks go forward at 02:00
        let first = W.snapshot(version: 1, at: evening, [.init(station: 1, tenths: 1_900)])
        let second = W.snapshot(version: 2, at: evening + 60, [.init(station: 1, tenths: 1_800)])
        #expect(W.step([alert], from: first, to: second, states: &states).decisions.first?.deliverAfter == W.utc("2026-10-03T20:00:00Z"))
    }

    /// Quiet hours hold every push, a summary too: a daily time inside them waits for their end, outside them not.
    @Test func aDailySummaryDueInQuietHoursWaitsForTheirEnd() {
        let decidedAt = W.utc("2026-12-01T06:00:00Z") // 14:00 AWST
        func deliverAfter(quietTo: String) -> Date? {
            let alert = W.alert(1, .priceDrop, .stations([1]), change: 10, delivery: .daily(at: TimeOfDay("07:30")!),
                                quiet: QuietHours(from: TimeOfDay("22:00")!, to: TimeOfDay(quietTo)!), zone: "Australia/Perth")
            var states: AlertStates = [:]
            let first = W.snapshot(version: 1, at: decidedAt, [.init(station: 1, tenths: 1_900)])
            let second = W.snapshot(version: 2, at: decidedAt + 60, [.init(station: 1, tenths: 1_800)])
            let decision = W.step([alert], from: first, to: second, states: &states).decisions.first
            #expect(decision?.summaryGroup == "daily.a1.2026-12-02" && decision?.quietHours == nil)
            return decision?.deliverAfter
        }
        #expect(deliverAfter(quietTo: "08:00") == W.utc("2026-12-02T00:00:00Z"), "07:30 is quiet: 08:00 AWST")
        #expect(deliverAfter(quietTo: "07:30") == W.utc("2026-12-01T23:30:00Z"), "quiet until 07:30 exclusive: 07:30 AWST")
    }

    /// A daily time happens once a local day: on the night Sydney's clocks go back over 02:30 (5 April 2026, at
    /// 15:30 and 16:30 UTC) the summary goes at the first, and a decision between the two waits for the next day's,
    /// in the next day's group: two summaries of one group would be two pushes.
    @Test func aDailyTimeTheClocksRepeatSummarisesOnce() {
        func decided(at instant: Date) -> AlertDecision? {
            let alert = W.alert(1, .priceDrop, .stations([1]), change: 10, delivery: .daily(at: TimeOfDay("02:30")!))
            var states: AlertStates = [:]
            let first = W.snapshot(version: 1, at: instant - 60, [.init(station: 1, tenths: 1_900)])
            let second = W.snapshot(version: 2, at: instant, [.init(station: 1, tenths: 1_800)])
            return W.step([alert], from: first, to: second, states: &states).decisions.first
        }
        let before = decided(at: W.utc("2026-04-04T14:00:00Z")) // 01:00 AEDT
        #expect(before?.deliverAfter == W.utc("2026-04-04T15:30:00Z") && before?.summaryGroup == "daily.a1.2026-04-05")
        let between = decided(at: W.utc("2026-04-04T15:40:00Z")) // 02:40 AEDT, before the repeat
        #expect(between?.deliverAfter == W.utc("2026-04-05T16:30:00Z") && between?.summaryGroup == "daily.a1.2026-04-06")
    }

    @Test func aDailyAlertIsDeferredTo0730LocalInOneSummaryGroup() {
        let alert = W.alert(1, .priceDrop, .stations([1, 2]), change: 10, delivery: .daily(at: TimeOfDay("07:30")!), zone: "Australia/Perth")
        var states: AlertStates = [:]
        let before = W.utc("2026-12-01T23:29:00Z") // 07:29 AWST
        let first = W.snapshot(version: 1, at: before, [.init(station: 1, tenths: 1_900), .init(station: 2, tenths: 1_900)])
        let second = W.snapshot(version: 2, at: before + 30, [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_800)])
        let decisions = W.step([alert], from: first, to: second, states: &states).decisions
        #expect(decisions.map(\.deliverAfter) == [W.utc("2026-12-01T23:30:00Z"), W.utc("2026-12-01T23:30:00Z")])
        #expect(Set(decisions.compactMap(\.summaryGroup)) == ["daily.a1.2026-12-02"])
        // Decided at 07:30:01 the summary waits for tomorrow's 07:30.
        let third = W.snapshot(version: 3, at: W.utc("2026-12-01T23:30:01Z"), [.init(station: 1, tenths: 1_700), .init(station: 2, tenths: 1_800)])
        #expect(W.step([alert], from: second, to: third, states: &states).decisions.map(\.deliverAfter) == [W.utc("2026-12-02T23:30:00Z")])
    }

    // MARK: - wa_tomorrow

    let perthDay = CalendarDay(year: 2026, month: 12, day: 2)!
    /// 14:29 and 14:30 Perth on 1 December, when the prices for 2 December are published.
    let beforePublication = W.utc("2026-12-01T06:29:00Z")
    let publication = W.utc("2026-12-01T06:30:00Z")

    func board(_ instant: Date, version: UInt64) -> Snapshot {
        W.snapshot(version: version, at: instant, [
            .init(station: 100, tenths: 1_800, tomorrow: 1_920), .init(station: 101, tenths: 1_900, tomorrow: 1_815),
            .init(station: 102, tenths: 1_900, tomorrow: 1_901), .init(station: 103, tenths: 1_900),
        ], tomorrowDay: perthDay)
    }

    @Test func tomorrowsPricesAreAnnouncedAt1430PerthNotAMinuteBefore() {
        let alert = W.alert(1, .waTomorrow, .stations([100, 101, 102, 103]), zone: "Australia/Perth")
        var states: AlertStates = [:]
        var announced: String?
        let start = W.snapshot(version: 1, at: beforePublication - 60, [])
        let early = W.step([alert], from: start, to: board(beforePublication, version: 2), states: &states, announced: &announced)
        #expect(early.decisions.isEmpty && announced == nil)
        let onTime = W.step([alert], from: start, to: board(beforePublication, version: 2), states: &states, now: publication, announced: &announced)
        #expect(onTime.decisions.map(\.message) == ["U91 rises 12.0 c/L tomorrow: fill up today", "U91 falls 8.5 c/L tomorrow: wait"])
        #expect(onTime.decisions.map(\.key) == ["a1.s100.U91.d2026-12-02", "a1.s101.U91.d2026-12-02"])
        #expect(announced == "2026-12-02")
        let again = W.step([alert], from: start, to: board(publication + 60, version: 3), states: &states, announced: &announced)
        #expect(again.decisions.isEmpty, "once per trading day")
    }

    // MARK: - Burst folding

    @Test func aBurstSendsThreeAndFoldsTheRestIntoOne() {
        let pending = (1...5).map { PushPlan.Pending(id: Int64($0), title: "Station \($0)", message: "m\($0)") }
        let now = t0
        let (pushes, retry) = PushPlan.plan(pending, recentSends: [], now: now)
        #expect(pushes.map(\.ids) == [[1], [2], [3, 4, 5]])
        #expect(pushes.last?.message == "m3 and 2 more")
        #expect(retry == nil)
        let three = PushPlan.plan(Array(pending.prefix(3)), recentSends: [], now: now).pushes
        #expect(three.map(\.ids) == [[1], [2], [3]], "three fit the hour unfolded")
    }

    @Test func aFullHourHoldsImmediatePushesButNotADailySummary() {
        let recent = [t0 - 3_599, t0 - 1_000, t0 - 10]
        let pending = [PushPlan.Pending(id: 1, title: "a", message: "m1"), PushPlan.Pending(id: 2, title: "b", message: "m2", summaryGroup: "daily.a1.2026-12-02"),
                       PushPlan.Pending(id: 3, title: "c", message: "m3", summaryGroup: "daily.a1.2026-12-02")]
        let (pushes, retry) = PushPlan.plan(pending, recentSends: recent, now: t0)
        #expect(pushes.map(\.ids) == [[2, 3]])
        #expect(pushes.first?.message == "2 updates: b: m2; c: m3")
        #expect(retry == t0 + 1)
        let (later, _) = PushPlan.plan([pending[0]], recentSends: [t0 - 3_600, t0 - 1_000, t0 - 10], now: t0)
        #expect(later.map(\.ids) == [[1]], "a push exactly an hour old has left the window")
    }

    /// A day of a 25 km `near` alert in a city can decide hundreds of items: the summary spells out five and counts
    /// the rest, so it stays one push a relay accepts (APNs and FCM take 4 KB).
    @Test func aDailySummarySpellsOutFiveItemsAndCountsTheRest() {
        let group = "daily.a1.2026-12-02"
        let many = (1...300).map { PushPlan.Pending(id: Int64($0), title: "Station \($0)", message: "U91 is 170.\($0 % 10) c/L, at or below your 175.0", summaryGroup: group) }
        let push = try! #require(PushPlan.plan(many, recentSends: [], now: t0).pushes.first)
        #expect(push.ids.count == 300, "every row is delivered by the one summary")
        #expect(push.message.hasPrefix("300 updates: Station 1: U91 is 170.1 c/L"))
        #expect(push.message.hasSuffix("Station 5: U91 is 170.5 c/L, at or below your 175.0 and 295 more"))
        #expect(push.message.utf8.count < 1_000)
        let five = PushPlan.plan(Array(many.prefix(5)), recentSends: [], now: t0).pushes.first?.message ?? ""
        #expect(five.hasPrefix("5 updates: ") && !five.contains("more"), "five are all spelled out")
    }
}

import Foundation
import Testing

@testable import Fuel

@Suite struct WATradingDayTests {
    @Test func theTradingDayStartsAt0600Perth() {
        // 06:00 Perth is 22:00 UTC the previous day.
        #expect(WATradingDay.day(containing: Fixture.date("2026-01-14T21:59:00Z")) == "2026-01-14")
        #expect(WATradingDay.day(containing: Fixture.date("2026-01-14T22:00:00Z")) == "2026-01-15")
    }

    @Test func justAfterMidnightPerthIsStillTheTradingDayBefore() {
        #expect(WATradingDay.day(containing: Fixture.date("2026-01-14T16:30:00Z")) == "2026-01-14")  // 00:30 Perth, 15th
    }

    @Test func aTradingDayStartsAt0600PerthOnItsDate() {
        #expect(WATradingDay.start(of: CalendarDay("2026-01-15")!) == Fixture.date("2026-01-14T22:00:00Z"))
    }

    @Test func tomorrowsPricesArePublishedAt1430PerthTheDayBefore() {
        #expect(WATradingDay.publicationInstant(forTradingDay: "2026-01-16") == Fixture.date("2026-01-15T06:30:00Z"))
        #expect(WATradingDay.publicationInstant(forTradingDay: "2026-03-01") == Fixture.date("2026-02-28T06:30:00Z"))
        #expect(WATradingDay.publicationInstant(forTradingDay: "16/01/2026") == nil)
    }

    @Test func expectedAtPointsToTheNextTradingDaysPublication() {
        let morning = Fixture.date("2026-01-15T01:00:00Z")  // 09:00 Perth
        #expect(WATradingDay.expectedAt(now: morning) == Fixture.date("2026-01-15T06:30:00Z"))
        let beforeDawn = Fixture.date("2026-01-15T20:00:00Z")  // 04:00 Perth on the 16th: still the 15th's trading day
        #expect(WATradingDay.expectedAt(now: beforeDawn) == Fixture.date("2026-01-15T06:30:00Z"))
    }

    @Test func tomorrowCountsAsPublishedOnlyAfter1430WithData() {
        let before = Fixture.date("2026-01-15T06:29:00Z")
        let after = Fixture.date("2026-01-15T06:30:00Z")
        #expect(!WATradingDay.isPublished(now: before, hasTomorrowData: true))
        #expect(!WATradingDay.isPublished(now: after, hasTomorrowData: false))
        #expect(WATradingDay.isPublished(now: after, hasTomorrowData: true))
    }
}

@Suite struct TomorrowVerdictTests {
    @Test func pricesWithinATenthOfACentAreTheSame() {
        #expect(TomorrowVerdict(today: PriceTenths(tenths: 1_899), tomorrow: PriceTenths(tenths: 1_900)) == .same)
        #expect(TomorrowVerdict(today: PriceTenths(tenths: 1_900), tomorrow: PriceTenths(tenths: 1_899)) == .same)
        #expect(TomorrowVerdict(today: PriceTenths(tenths: 1_900), tomorrow: PriceTenths(tenths: 1_900)) == .same)
    }

    @Test func aBiggerRiseMeansFillUpToday() {
        #expect(TomorrowVerdict(today: PriceTenths(tenths: 1_899), tomorrow: PriceTenths(tenths: 1_901)) == .todayCheaper)
    }

    @Test func aBiggerDropMeansWaitForTomorrow() {
        #expect(TomorrowVerdict(today: PriceTenths(tenths: 1_901), tomorrow: PriceTenths(tenths: 1_899)) == .tomorrowCheaper)
    }

    @Test func theBoardComparesOnlyTheNextTradingDaysPrices() {
        let morning = Fixture.date("2026-01-15T01:00:00Z")
        let afternoon = Fixture.date("2026-01-15T07:00:00Z")
        let first = Fixture.merge(Fixture.update(.wa, count: 3, tenths: 1_800, state: .WA, asOf: morning), at: morning)
        let tomorrow = ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: [
                TomorrowPriceRecord(station: Fixture.key(.wa, "1"), fuel: .U91, price: PriceTenths(tenths: 1_700), day: "2026-01-16"),
                TomorrowPriceRecord(station: Fixture.key(.wa, "2"), fuel: .U91, price: PriceTenths(tenths: 1_805), day: "2026-01-16"),
                TomorrowPriceRecord(station: Fixture.key(.wa, "3"), fuel: .U91, price: PriceTenths(tenths: 1_700), day: "2026-01-15"),
            ],
            asOf: afternoon)
        let snapshot = Fixture.merge(tomorrow, into: first.snapshot, registry: first.registry, at: afternoon).snapshot
        let board = TomorrowBoard(snapshot: snapshot, fuel: .U91, now: afternoon)
        #expect(board.tradingDay == "2026-01-16")
        #expect(board.isPublished)
        #expect(board.expectedAt == Fixture.date("2026-01-15T06:30:00Z"))
        #expect(board.comparisons.map(\.station) == [1, 2])
        #expect(board.comparisons.map(\.verdict) == [.tomorrowCheaper, .todayCheaper])
        #expect(TomorrowBoard(snapshot: snapshot, fuel: .DL, now: afternoon).isPublished)
        #expect(!TomorrowBoard(snapshot: first.snapshot, now: afternoon).isPublished)
    }
}

@Suite struct RolloverTests {
    let afternoon = Fixture.date("2026-01-15T07:00:00Z")  // 15:00 Perth on the 15th

    func withTomorrow() -> Snapshot {
        let first = Fixture.merge(Fixture.update(.wa, count: 2, tenths: 1_800, state: .WA, asOf: afternoon), at: afternoon)
        let tomorrow = ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: [TomorrowPriceRecord(station: Fixture.key(.wa, "1"), fuel: .U91, price: PriceTenths(tenths: 1_650), day: "2026-01-16")],
            asOf: afternoon)
        return Fixture.merge(tomorrow, into: first.snapshot, registry: first.registry, at: afternoon).snapshot
    }

    @Test func beforeSixInTheMorningNothingRollsOver() {
        let snapshot = withTomorrow()
        let rolled = snapshot.rollingOverTomorrow(at: Fixture.date("2026-01-15T21:59:00Z"))
        #expect(rolled == snapshot)
    }

    @Test func atSixTomorrowsPricesBecomeTodays() {
        let snapshot = withTomorrow()
        let six = Fixture.date("2026-01-15T22:00:00Z")
        let rolled = snapshot.rollingOverTomorrow(at: six)
        let price = rolled[1]?.price(of: .U91)
        #expect(price?.price == PriceTenths(tenths: 1_650))
        #expect(price?.updatedAt == six)
        #expect(price?.tomorrow == nil)
        #expect(rolled[2]?.price(of: .U91) == snapshot[2]?.price(of: .U91))
        #expect(rolled.version == snapshot.version + 1)
        #expect(rolled.status(of: .wa)?.asOf == six)
        #expect(rolled.rollingOverTomorrow(at: six) == rolled)
    }

    @Test func rollingOverRecordsTheNewDaysTrendPoint() {
        let dataset = Dataset(snapshot: withTomorrow())
        let rolled = dataset.rollingOverTomorrow(at: Fixture.date("2026-01-15T22:30:00Z"))
        let points = rolled.history.points(state: .WA, fuel: .U91)
        #expect(points.map(\.day) == ["2026-01-16"])
        #expect(points.first?.min == PriceTenths(tenths: 1_650))
    }
}

@Suite struct TomorrowBoardIndexTests {
    @Test func theIndexBoardMatchesTheSnapshotBoard() {
        let afternoon = Fixture.date("2026-01-15T07:00:00Z")
        let nsw = Fixture.merge(Fixture.update(.nsw, count: 2))
        let wa = Fixture.merge(
            Fixture.update(.wa, count: 2, state: .WA), into: nsw.snapshot, registry: nsw.registry, at: afternoon)
        let tomorrow = ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: [TomorrowPriceRecord(station: Fixture.key(.wa, "2"), fuel: .U91, price: PriceTenths(tenths: 1_500), day: "2026-01-16")],
            asOf: afternoon)
        let snapshot = Fixture.merge(tomorrow, into: wa.snapshot, registry: wa.registry, at: afternoon).snapshot
        let board = FuelIndex(snapshot: snapshot).tomorrowBoard(now: afternoon)
        #expect(board == TomorrowBoard(snapshot: snapshot, now: afternoon))
        #expect(board.comparisons.map(\.station) == [4])
    }
}

@Suite struct TomorrowBoardPublicationTests {
    @Test func comparisonsStayHiddenBeforePublication() {
        let morning = Fixture.date("2026-01-15T02:00:00Z")  // 10:00 Perth
        let first = Fixture.merge(Fixture.update(.wa, count: 1, state: .WA, asOf: morning), at: morning)
        let early = ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: [TomorrowPriceRecord(station: Fixture.key(.wa, "1"), fuel: .U91, price: PriceTenths(tenths: 1_500), day: "2026-01-16")],
            asOf: morning)
        let snapshot = Fixture.merge(early, into: first.snapshot, registry: first.registry, at: morning).snapshot
        let board = TomorrowBoard(snapshot: snapshot, now: morning)
        #expect(!board.isPublished)
        #expect(board.comparisons.isEmpty)
        #expect(TomorrowBoard(snapshot: snapshot, now: Fixture.date("2026-01-15T06:30:00Z")).comparisons.count == 1)
    }
}

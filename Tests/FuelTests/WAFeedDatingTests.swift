import Foundation
import Testing

@testable import Fuel

/// The merge judges WA feeds by their own dates at the merge instant: a today feed dated a trading day that has
/// ended never overwrites newer prices, and tomorrow's prices are taken only for the next trading day.
@Suite struct WAFeedDatingTests {
    static func perth(_ day: String, _ hour: Int, _ minute: Int = 0) -> Date {
        WATomorrowScheduleTests.perth(day, hour, minute)
    }

    /// A FuelWatch today feed for `day`: stations 1-3 at `tenths` (+ index), priced from 06:00 that day.
    static func todayFeed(_ day: String, tenths: Int = 1_800) -> ProviderUpdate {
        let start = WATradingDay.start(of: CalendarDay(day)!)
        var update = Fixture.update(.wa, count: 3, tenths: tenths, state: .WA, asOf: start)
        update.tradingDay = CalendarDay(day)
        return update
    }

    static func tomorrowFeed(_ day: String, tenths: Int = 1_700, at: Date) -> ProviderUpdate {
        ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: (1...3).map { TomorrowPriceRecord(station: Fixture.key(.wa, String($0)), fuel: .U91, price: PriceTenths(tenths: tenths + $0), day: day) },
            asOf: at, isDelta: true)
    }

    /// 22 Apr's prices, with 23 Apr's published at `publishedAt` (default 14:35).
    static func heldTomorrow(publishedAt: Date = perth("2026-04-22", 14, 35)) -> MergeResult {
        let today = Fixture.merge(todayFeed("2026-04-22"), at: perth("2026-04-22", 9))
        return Fixture.merge(tomorrowFeed("2026-04-23", at: publishedAt), into: today.snapshot, registry: today.registry, at: publishedAt)
    }

    @Test func tomorrowsPricesRecordWhenThisServerFirstHeldThem() throws {
        let late = Self.perth("2026-04-22", 20, 0)
        let held = Self.heldTomorrow(publishedAt: late)
        let publication = try #require(held.snapshot.status(of: .wa)?.tomorrow)
        #expect(publication.day == CalendarDay("2026-04-23"))
        #expect(publication.publishedAt == late)
        #expect(publication.delay == 5.5 * 3_600)
        // The same prices again do not move the publication instant.
        let again = Fixture.merge(Self.tomorrowFeed("2026-04-23", at: late), into: held.snapshot, registry: held.registry, at: late.addingTimeInterval(600))
        #expect(again.snapshot.status(of: .wa)?.tomorrow?.heldSince == late)
        let board = TomorrowBoard(snapshot: again.snapshot, now: late.addingTimeInterval(600))
        #expect(board.isPublished && board.publishedAt == late)
    }

    @Test func aTomorrowFeedDatedTwoDaysAheadIsNeverMerged() {
        let today = Fixture.merge(Self.todayFeed("2026-04-22"), at: Self.perth("2026-04-22", 9))
        let at1500 = Self.perth("2026-04-22", 15)
        let result = Fixture.merge(Self.tomorrowFeed("2026-04-24", at: at1500), into: today.snapshot, registry: today.registry, at: at1500)
        #expect(!result.report.isApplied)
        #expect(result.snapshot.entries.allSatisfy { $0.prices.allSatisfy { $0.tomorrow == nil } })
        #expect(result.snapshot.status(of: .wa)?.tomorrow == nil)
        #expect(!TomorrowBoard(snapshot: result.snapshot, now: at1500).isPublished)
        // Yesterday's tomorrow feed (the day in force) is not tomorrow's either.
        let stale = Fixture.merge(Self.tomorrowFeed("2026-04-22", at: at1500), into: today.snapshot, registry: today.registry, at: at1500)
        #expect(!stale.report.isApplied)
    }

    @Test func atSixTomorrowBecomesTodayAndAStaleTodayFeedNeverOverwritesIt() throws {
        let held = Self.heldTomorrow()
        let at0601 = Self.perth("2026-04-23", 6, 1)
        let rolled = held.snapshot.rollingOverTomorrow(at: at0601)
        let promoted = try #require(rolled[1]?.price(of: .U91))
        #expect(promoted.price == PriceTenths(tenths: 1_701))
        #expect(promoted.updatedAt == WATradingDay.start(of: CalendarDay("2026-04-23")!))
        #expect(promoted.seenAt == at0601, "a promotion is a change for syncing clients")
        #expect(rolled.status(of: .wa)?.tomorrow == nil)

        // FuelWatch's cache still serves the 22nd's feed at 06:20: refused, kept, stale.
        let at0620 = Self.perth("2026-04-23", 6, 20)
        let stale = Fixture.merge(Self.todayFeed("2026-04-22"), into: rolled, registry: held.registry, at: at0620)
        guard case .rejected(let reason) = stale.report.outcome else { Issue.record("\(stale.report.outcome)"); return }
        #expect(reason.contains("dated 2026-04-22") && reason.contains("2026-04-23"))
        #expect(stale.snapshot == rolled, "refused without a new version: the poller's status store says stale")

        // A correctly dated feed arrives: applied, ok again.
        let fresh = Fixture.merge(Self.todayFeed("2026-04-23", tenths: 1_720), into: stale.snapshot, registry: held.registry, at: at0620.addingTimeInterval(600))
        #expect(fresh.report.isApplied)
        #expect(fresh.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_721))
    }

    @Test func theSameFeedIsFineUntil0600AndStaleFromIt() {
        let feed = Self.todayFeed("2026-04-22")
        let base = Fixture.merge(feed, at: Self.perth("2026-04-22", 9))
        let at0559 = Fixture.merge(feed, into: base.snapshot, registry: base.registry, at: Self.perth("2026-04-23", 5, 59))
        let at0601 = Fixture.merge(feed, into: base.snapshot, registry: base.registry, at: Self.perth("2026-04-23", 6, 1))
        #expect(at0559.report.isApplied)
        #expect(!at0601.report.isApplied)
        #expect(at0601.snapshot == base.snapshot)
    }

    @Test func tomorrowsPricesDoNotClearAStaleToday() throws {
        let base = Fixture.merge(Self.todayFeed("2026-04-22"), at: Self.perth("2026-04-22", 9))
        // A feed from the 21st at 14:40 on the 22nd: stale.
        let at1440 = Self.perth("2026-04-22", 14, 40)
        let stale = Fixture.merge(Self.todayFeed("2026-04-21"), into: base.snapshot, registry: base.registry, at: at1440)
        #expect(!stale.report.isApplied)
        let tomorrow = Fixture.merge(Self.tomorrowFeed("2026-04-23", at: at1440), into: stale.snapshot, registry: stale.registry, at: at1440)
        #expect(tomorrow.report.isApplied)
        #expect(tomorrow.report.isTomorrowOnly, "so the status store keeps WA stale")
        #expect(tomorrow.snapshot.status(of: .wa)?.tomorrow?.day == CalendarDay("2026-04-23"))
    }

    @Test func theBoardAnswersOnBothSidesOfEachBoundary() {
        let held = Self.heldTomorrow()
        let snapshot = held.snapshot
        // 14:29: before publication nothing shows, even if something were held.
        #expect(!TomorrowBoard(snapshot: snapshot, now: Self.perth("2026-04-22", 14, 29)).isPublished)
        let at1431 = TomorrowBoard(snapshot: snapshot, now: Self.perth("2026-04-22", 14, 36))
        #expect(at1431.isPublished && at1431.tradingDay == "2026-04-23" && at1431.comparisons.count == 3)
        // 05:59 the next morning: still tomorrow's prices for the 23rd.
        let at0559 = TomorrowBoard(snapshot: snapshot, now: Self.perth("2026-04-23", 5, 59))
        #expect(at0559.isPublished && at0559.tradingDay == "2026-04-23")
        // 06:01: the 24th's are next, and not out before 14:30.
        let at0601 = TomorrowBoard(snapshot: snapshot.rollingOverTomorrow(at: Self.perth("2026-04-23", 6, 1)), now: Self.perth("2026-04-23", 6, 1))
        #expect(!at0601.isPublished && at0601.tradingDay == "2026-04-24")
        #expect(at0601.expectedAt == Self.perth("2026-04-23", 14, 30))
    }

    @Test func aSamplesTomorrowPriceNeverSurvivesIntoLiveData() {
        // A sample recorded on 22 Apr with the 23rd's prices, then live data in November under the same stations.
        let recorded = Self.perth("2026-04-22", 15)
        let sample = Fixture.merge(Self.todayFeed("2026-04-22"), source: .sample, at: recorded)
        let withTomorrow = Fixture.merge(
            Self.tomorrowFeed("2026-04-23", at: recorded), into: sample.snapshot, registry: sample.registry, source: .sample, at: recorded)
        #expect(withTomorrow.snapshot.entries.contains { $0.prices.contains { $0.tomorrow != nil } })
        let november = Self.perth("2026-11-24", 9)
        let live = Fixture.merge(Self.todayFeed("2026-11-24"), into: withTomorrow.snapshot, registry: withTomorrow.registry, at: november)
        #expect(live.report.isApplied)
        #expect(live.snapshot.entries.allSatisfy { $0.prices.allSatisfy { $0.tomorrow == nil } })
        #expect(live.snapshot.status(of: .wa)?.tomorrow == nil)
    }

    @Test func tomorrowsPricesHeldForTheNextTradingDayStayThroughATodayFeed() {
        let held = Self.heldTomorrow()
        let at1600 = Self.perth("2026-04-22", 16)
        let again = Fixture.merge(Self.todayFeed("2026-04-22", tenths: 1_810), into: held.snapshot, registry: held.registry, at: at1600)
        #expect(again.snapshot[1]?.price(of: .U91)?.tomorrow?.day == "2026-04-23")
    }
}

import Foundation
import Testing

@testable import Fuel

/// Walkaway General Store (FuelWatch site 992) is closed today and publishes tomorrow's prices, U91
/// 218.0 and diesel 316.0 (the recorded 22 Apr 2026 sites feed). With no price today it must still be on the
/// board (`today` nil, `noPriceToday`) from 14:30, and at 06:00 its tomorrow prices become that day's.
@Suite struct TomorrowWithoutTodayTests {
    static let day = CalendarDay("2026-11-24")!
    static let next = day.advanced(by: 1)

    static let walkaway = StationKey(provider: .wa, sourceID: "site-992")
    static let open = StationKey(provider: .wa, sourceID: "site-1")

    static func station(_ key: StationKey, _ name: String) -> StationRecord {
        StationRecord(
            key: key, name: name, brand: "IND", address: "1 Evans Rd", suburb: "WALKAWAY", state: .WA, postcode: "6528",
            location: Coordinate(latitude: -28.940137, longitude: 114.801816))
    }

    /// The sites feed polled at `at`: Walkaway listed without a price today; another site priced at 200.0. With
    /// `published`, both carry tomorrow's prices.
    static func feed(at: Date, published: Bool) -> ProviderUpdate {
        let start = WATradingDay.start(of: day)
        let tomorrow = next.description
        return ProviderUpdate(
            provider: .wa, stations: [station(walkaway, "Walkaway General Store"), station(open, "Open Servo")],
            prices: [PriceRecord(station: open, fuel: .U91, price: PriceTenths(tenths: 2_000), updatedAt: start)],
            tomorrow: published
                ? [
                    TomorrowPriceRecord(station: walkaway, fuel: .U91, price: PriceTenths(tenths: 2_180), day: tomorrow),
                    TomorrowPriceRecord(station: walkaway, fuel: .DL, price: PriceTenths(tenths: 3_160), day: tomorrow),
                    TomorrowPriceRecord(station: open, fuel: .U91, price: PriceTenths(tenths: 1_950), day: tomorrow),
                ] : [],
            asOf: start)
    }

    /// Merged at 14:35 on `day`: the morning feed, then the published one.
    static func published() -> MergeResult {
        let morning = Snapshot.empty.merging(feed(at: Fixture.perth(day, 9), published: false), registry: StationRegistry(), at: Fixture.perth(day, 9))
        return morning.snapshot.merging(feed(at: Fixture.perth(day, 14, 35), published: true), registry: morning.registry, at: Fixture.perth(day, 14, 35))
    }

    static func walkawayRows(_ board: TomorrowBoard) -> [TomorrowComparison] {
        board.comparisons.filter { $0.station == StationID(1) }
    }

    @Test func theMergeKeepsTomorrowsPricesOfAStationWithNoPriceToday() throws {
        let result = Self.published()
        #expect(result.report.tomorrowPrices == 3)
        #expect(result.report.orphanPrices == 0)
        let entry = try #require(result.snapshot[StationID(1)])
        #expect(entry.station.name == "Walkaway General Store")
        #expect(entry.prices.isEmpty)
        #expect(entry.tomorrow(of: .U91) == TomorrowPrice(price: PriceTenths(tenths: 2_180), day: "2026-11-25"))
        #expect(entry.tomorrow(of: .DL) == TomorrowPrice(price: PriceTenths(tenths: 3_160), day: "2026-11-25"))
        #expect(result.snapshot.status(of: .wa)?.tomorrow?.day == Self.next)
    }

    @Test func aLaterTodayFeedWithoutTomorrowsPricesKeepsThem() throws {
        let published = Self.published()
        let later = published.snapshot.merging(
            Self.feed(at: Fixture.perth(Self.day, 16), published: false), registry: published.registry, at: Fixture.perth(Self.day, 16))
        #expect(later.snapshot[StationID(1)]?.tomorrow(of: .U91)?.price == PriceTenths(tenths: 2_180))
        #expect(later.snapshot[StationID(1)]?.tomorrow(of: .DL)?.price == PriceTenths(tenths: 3_160))
    }

    @Test func theBoardListsItWithNoPriceTodayFrom1430() throws {
        let snapshot = Self.published().snapshot
        let before = TomorrowBoard(snapshot: snapshot, now: Fixture.perth(Self.day, 14, 29))
        #expect(!before.isPublished)
        #expect(before.comparisons.isEmpty)

        let after = TomorrowBoard(snapshot: snapshot, now: Fixture.perth(Self.day, 14, 30))
        #expect(after.isPublished)
        #expect(after.tradingDay == "2026-11-25")
        let rows = Self.walkawayRows(after)
        #expect(rows.map(\.fuel) == [.U91, .DL])
        #expect(rows.map(\.tomorrow) == [PriceTenths(tenths: 2_180), PriceTenths(tenths: 3_160)])
        #expect(rows.allSatisfy { $0.today == nil && $0.verdict == .noPriceToday })
        // The open site keeps its ordinary verdict.
        #expect(after.comparisons.first { $0.station == StationID(2) }?.verdict == .tomorrowCheaper)
        // One fuel asked for: only that row.
        #expect(Self.walkawayRows(TomorrowBoard(snapshot: snapshot, fuel: .DL, now: Fixture.perth(Self.day, 14, 30))).map(\.fuel) == [.DL])
    }

    @Test func at0600TomorrowsPricesBecomeItsPricesForTheDay() throws {
        let snapshot = Self.published().snapshot

        let at0559 = snapshot.rollingOverTomorrow(at: Fixture.perth(Self.next, 5, 59))
        #expect(at0559.version == snapshot.version)
        #expect(at0559[StationID(1)]?.prices.isEmpty == true)
        #expect(Self.walkawayRows(TomorrowBoard(snapshot: at0559, now: Fixture.perth(Self.next, 5, 59))).count == 2)

        let at0600 = snapshot.rollingOverTomorrow(at: Fixture.perth(Self.next, 6))
        let entry = try #require(at0600[StationID(1)])
        #expect(entry.price(of: .U91)?.price == PriceTenths(tenths: 2_180))
        #expect(entry.price(of: .DL)?.price == PriceTenths(tenths: 3_160))
        #expect(entry.price(of: .U91)?.updatedAt == WATradingDay.start(of: Self.next))
        #expect(entry.tomorrowOnly.isEmpty)
        #expect(at0600.status(of: .wa)?.asOf == WATradingDay.start(of: Self.next))
        // Its prices now count today; nothing is published yet for the 26th.
        let board = TomorrowBoard(snapshot: at0600, now: Fixture.perth(Self.next, 6))
        #expect(board.tradingDay == "2026-11-26")
        #expect(Self.walkawayRows(board).isEmpty)
    }

    @Test func aSampleRecordingIsNotPromoted() throws {
        let morning = Snapshot.empty.merging(
            Self.feed(at: Fixture.perth(Self.day, 15), published: true), registry: StationRegistry(), source: .sample, at: Fixture.perth(Self.day, 15))
        let rolled = morning.snapshot.rollingOverTomorrow(at: Fixture.perth(Self.next, 6))
        #expect(rolled[StationID(1)]?.prices.isEmpty == true)
        #expect(rolled[StationID(1)]?.tomorrow(of: .U91)?.price == PriceTenths(tenths: 2_180))
    }

    @Test func aTodayPriceArrivingLaterTakesTheTomorrowPriceWithIt() throws {
        let published = Self.published()
        var reopened = Self.feed(at: Fixture.perth(Self.day, 17), published: false)
        reopened.prices.append(
            PriceRecord(station: Self.walkaway, fuel: .U91, price: PriceTenths(tenths: 2_250), updatedAt: Fixture.perth(Self.day, 17)))
        let result = published.snapshot.merging(reopened, registry: published.registry, at: Fixture.perth(Self.day, 17))
        let entry = try #require(result.snapshot[StationID(1)])
        #expect(entry.price(of: .U91)?.tomorrow?.price == PriceTenths(tenths: 2_180))
        #expect(entry.tomorrowOnly.map(\.fuel) == [.DL])
        let board = TomorrowBoard(snapshot: result.snapshot, now: Fixture.perth(Self.day, 17))
        #expect(Self.walkawayRows(board).map(\.verdict) == [.tomorrowCheaper, .noPriceToday])
    }
}

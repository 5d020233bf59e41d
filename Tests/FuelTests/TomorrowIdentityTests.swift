import Foundation
import Testing

@testable import Fuel

/// A WA site that kept its sample id across the switch to live RSS (its live key an alias of the sample
/// key) gets tomorrow's price and the 06:00 promotion like every other site. The tomorrow feed names stations only
/// by their live keys (no station records), so it must resolve them through the same aliases as today's feed.
@Suite struct TomorrowIdentityTests {
    static let day = CalendarDay("2026-11-24")!
    static let next = day.advanced(by: 1)

    /// Vibe Byford as the sample knows it (`site-<n>`) and as the live RSS keys it (rounded coordinates).
    static let byford = (latitude: -32.2222, longitude: 116.0001)
    static let sampleKey = StationKey(provider: .wa, sourceID: "site-3295")
    static let liveKey = StationKey(provider: .wa, sourceID: "rss:-32.2222,116.0001")
    static let newKey = StationKey(provider: .wa, sourceID: "rss:-31.9000,115.9000")

    static func record(_ key: StationKey, name: String, latitude: Double, longitude: Double) -> StationRecord {
        StationRecord(
            key: key, name: name, brand: "Vibe", address: "1 Abernethy Rd", suburb: "Byford", state: .WA, postcode: "6122",
            location: Coordinate(latitude: latitude, longitude: longitude))
    }

    /// The sample, then live today (dated `day`, Byford at 126.7), then tomorrow published at 15:00 (Byford 124.7).
    static func published() -> (snapshot: Snapshot, registry: StationRegistry, report: MergeReport) {
        let sampleAt = Fixture.perth(CalendarDay("2026-04-22")!, 15)
        let sample = ProviderUpdate(
            provider: .wa, stations: [record(sampleKey, name: "Vibe Byford", latitude: byford.latitude, longitude: byford.longitude)],
            prices: [PriceRecord(station: sampleKey, fuel: .U91, price: PriceTenths(tenths: 1_799), updatedAt: sampleAt)],
            asOf: sampleAt)
        let loaded = Fixture.merge(sample, source: .sample, at: sampleAt)
        let byfordID = loaded.snapshot.entries[0].id

        let todayAt = Fixture.perth(day, 15)
        let live = ProviderUpdate(
            provider: .wa,
            stations: [
                record(liveKey, name: "Vibe Byford", latitude: byford.latitude, longitude: byford.longitude),
                record(newKey, name: "Another Site", latitude: -31.9, longitude: 115.9),
            ],
            prices: [
                PriceRecord(station: liveKey, fuel: .U91, price: PriceTenths(tenths: 1_267), updatedAt: WATradingDay.start(of: day)),
                PriceRecord(station: newKey, fuel: .U91, price: PriceTenths(tenths: 1_300), updatedAt: WATradingDay.start(of: day)),
            ],
            asOf: WATradingDay.start(of: day), tradingDay: day)
        let today = Fixture.merge(live, into: loaded.snapshot, registry: loaded.registry, at: todayAt)
        #expect(today.snapshot[byfordID]?.station.key == sampleKey)  // filed under the key it kept
        let tomorrow = ProviderUpdate(
            provider: .wa, stations: [], prices: [],
            tomorrow: [
                TomorrowPriceRecord(station: liveKey, fuel: .U91, price: PriceTenths(tenths: 1_247), day: next.description),
                TomorrowPriceRecord(station: newKey, fuel: .U91, price: PriceTenths(tenths: 1_280), day: next.description),
            ],
            asOf: todayAt, isDelta: true)
        let result = Fixture.merge(tomorrow, into: today.snapshot, registry: today.registry, at: todayAt)
        return (result.snapshot, result.registry, result.report)
    }

    @Test func aSiteThatKeptItsSampleIDGetsTomorrowsPrice() throws {
        let (snapshot, _, report) = Self.published()
        #expect(report.tomorrowPrices == 2)  // was 1: the kept site's record was an orphan
        #expect(report.orphanPrices == 0)
        let byford = try #require(snapshot.entries.first { $0.station.key == Self.sampleKey })
        #expect(byford.price(of: .U91)?.tomorrow == TomorrowPrice(price: PriceTenths(tenths: 1_247), day: "2026-11-25"))
    }

    @Test func itIsPromotedAt0600AndNotAMinuteBefore() throws {
        let (snapshot, _, _) = Self.published()
        let before = snapshot.rollingOverTomorrow(at: Fixture.perth(Self.next, 5, 59))
        let held = try #require(before.entries.first { $0.station.key == Self.sampleKey }?.price(of: .U91))
        #expect(held.price == PriceTenths(tenths: 1_267))
        #expect(held.tomorrow?.price == PriceTenths(tenths: 1_247))

        let after = snapshot.rollingOverTomorrow(at: Fixture.perth(Self.next, 6))
        let promoted = try #require(after.entries.first { $0.station.key == Self.sampleKey }?.price(of: .U91))
        #expect(promoted.price == PriceTenths(tenths: 1_247))  // was 126.7, yesterday's
        #expect(promoted.updatedAt == WATradingDay.start(of: Self.next))
        #expect(promoted.tomorrow == nil)
    }

    @Test func aLaterTodayFeedUnderTheLiveKeyKeepsTomorrowsPrice() throws {
        let (snapshot, registry, _) = Self.published()
        let later = Fixture.perth(Self.day, 17)
        let again = ProviderUpdate(
            provider: .wa,
            stations: [
                Self.record(Self.liveKey, name: "Vibe Byford", latitude: Self.byford.latitude, longitude: Self.byford.longitude),
                Self.record(Self.newKey, name: "Another Site", latitude: -31.9, longitude: 115.9),
            ],
            prices: [
                PriceRecord(station: Self.liveKey, fuel: .U91, price: PriceTenths(tenths: 1_267), updatedAt: WATradingDay.start(of: Self.day)),
                PriceRecord(station: Self.newKey, fuel: .U91, price: PriceTenths(tenths: 1_300), updatedAt: WATradingDay.start(of: Self.day)),
            ],
            asOf: WATradingDay.start(of: Self.day), tradingDay: Self.day)
        let result = Fixture.merge(again, into: snapshot, registry: registry, at: later)
        let byford = try #require(result.snapshot.entries.first { $0.station.key == Self.sampleKey })
        #expect(byford.price(of: .U91)?.tomorrow?.price == PriceTenths(tenths: 1_247))
    }
}

import Foundation
import Testing
@testable import Fuel

@Suite struct SelectFirstTests {
    @Test func theFirstKMatchAFullSortForAnyK() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            let values = (0..<Int.random(in: 0...300, using: &generator)).map { _ in Int.random(in: 0...50, using: &generator) }
            let k = Int.random(in: 0...values.count, using: &generator)
            var selected = values
            selected.selectFirst(k, by: <)
            #expect(Array(selected.prefix(k)) == Array(values.sorted().prefix(k)))
            #expect(selected.sorted() == values.sorted())
        }
    }

    /// Short lists (a nearby page) are sorted by insertion: elements that compare equal keep the order they came in.
    @Test func equalElementsKeepTheirOrderInShortLists() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            let keyed = (0..<Int.random(in: 0...64, using: &generator)).map { position in
                (key: Int.random(in: 0...8, using: &generator), position: position)
            }
            var selected = keyed
            selected.selectFirst(keyed.count, by: { $0.key < $1.key })
            let expected = keyed.sorted { ($0.key, $0.position) < ($1.key, $1.position) }
            #expect(selected.map(\.position) == expected.map(\.position))
        }
    }
}

@Suite struct SampleRolloverTests {
    @Test func sampleTomorrowPricesAreNotRolledOverByTheWallClock() {
        let key = StationKey(provider: .wa, sourceID: "site-1")
        let asOf = Date(timeIntervalSince1970: 1_776_808_800) // 2026-04-21T22:00:00Z = 06:00 AWST on 04-22
        let update = ProviderUpdate(
            provider: .wa,
            stations: [StationRecord(key: key, name: "S", brand: "B", address: "A", suburb: "P", state: .WA, postcode: "6000", location: Coordinate(latitude: -31.9, longitude: 115.8))],
            prices: [PriceRecord(station: key, fuel: .U91, price: PriceTenths(tenths: 1899), updatedAt: asOf)],
            tomorrow: [TomorrowPriceRecord(station: key, fuel: .U91, price: PriceTenths(tenths: 1799), day: "2026-04-23")],
            asOf: asOf)
        let later = Date(timeIntervalSince1970: 1_795_000_000) // November 2026
        let sample = Snapshot.empty.merging(update, registry: StationRegistry(), source: .sample, at: asOf).snapshot
        #expect(sample.rollingOverTomorrow(at: later).entries.first?.prices.first?.tomorrow != nil)
        let live = Snapshot.empty.merging(update, registry: StationRegistry(), source: .live, at: asOf).snapshot
        let rolled = live.rollingOverTomorrow(at: later).entries.first?.prices.first
        #expect(rolled?.tomorrow == nil)
        #expect(rolled?.price.tenths == 1799)
    }
}

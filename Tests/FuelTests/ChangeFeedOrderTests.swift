import Foundation
import Testing

@testable import Fuel

/// Issue 48 §8: built from the feed alone, a station item precedes its prices.
@Suite struct ChangeFeedOrderTests {
    @Test func aStationRenamedAfterItsPriceWasSeenStillComesFirst() {
        let first = Fixture.now
        let later = first.addingTimeInterval(3_600)
        var dataset = Dataset().merging(Fixture.update(.nsw, count: 3, asOf: first), at: first).0
        var renamed = Fixture.update(.nsw, count: 3, asOf: later)
        renamed.stations[1].name = "Renamed"
        dataset = dataset.merging(renamed, at: later).0
        let feed = ChangeFeed(index: FuelIndex(snapshot: dataset.snapshot), log: dataset.changes)
        let id = dataset.snapshot.entries[1].id
        let stationAt = feed.events.firstIndex { $0.station == id && $0.kind == .station }
        let priceAt = feed.events.firstIndex { event in
            if case .price = event.kind { return event.station == id }
            return false
        }
        #expect(stationAt != nil && priceAt != nil)
        if let stationAt, let priceAt { #expect(stationAt < priceAt) }
        // Every station of the feed comes before each of its prices.
        var seen = Set<StationID>()
        for event in feed.events {
            switch event.kind {
            case .station: seen.insert(event.station)
            case .price: #expect(seen.contains(event.station), "\(event.station)")
            default: break
            }
        }
        // A client holding a cursor between the price and the rename still gets the price's station.
        let between = ChangeCursor.after(instant: first.addingTimeInterval(1))
        #expect(feed.events(after: between).contains { $0.station == id && $0.kind == .station })
    }
}

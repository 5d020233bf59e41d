import Foundation
import Fuel
import Testing
@testable import API
@testable import App

@Suite struct FragmentCarryOverTests {
    @Test func aStatusOnlyChangeReusesTheStationJSONAndAPriceChangeDoesNot() throws {
        let memo = FragmentCarryOver()
        // The sample cut to 50 stations per provider: the carry-over is per station, and each update re-renders all.
        let store = PettyStore(initial: FollowerHarness.good) { basis in
            RenderedSnapshot.render(basis, memo: memo)
        }
        let before = store.current
        let sources = Dictionary(uniqueKeysWithValues: before.snapshot.statuses.map { ($0.provider, $0.source) })
        #expect(memo.unchanged(for: before.snapshot.entries, sources: sources, marks: RenderedSnapshot.marks(before.index), averages: AustralianState.allCases.map { before.index.averagesHash(of: $0) }) != nil)

        // A growth rejection is remembered in the status alone (see `Snapshot.merging`).
        store.update { dataset in
            var next = dataset
            let snapshot = dataset.snapshot
            var statuses = snapshot.statuses
            for index in statuses.indices where statuses[index].provider == .wa { statuses[index].growthRejections = 1 }
            next.snapshot = Snapshot(version: snapshot.version + 1, changedAt: Date(), entries: snapshot.entries, statuses: statuses)
            return next
        }
        let afterFailure = store.current
        #expect(FragmentCarryOver.sameStorage(before.snapshot.entries, afterFailure.snapshot.entries))
        #expect(afterFailure.rendered.fragments == before.rendered.fragments)
        #expect(afterFailure.rendered.detailBodies == before.rendered.detailBodies)
        // Not only equal: the very same buffers, so a status-only change allocates no station JSON.
        let allShared = zip(afterFailure.rendered.detailBodies, before.rendered.detailBodies).allSatisfy(Self.sameBuffer)
        #expect(allShared)

        let wa = try require(before.snapshot.entries.first { $0.station.state == .WA && !$0.prices.isEmpty })
        let price = wa.prices[0]
        let delta = ProviderUpdate(
            provider: .wa, stations: [],
            prices: [PriceRecord(station: wa.station.key, fuel: price.fuel, price: PriceTenths(tenths: price.price.tenths + 10), updatedAt: price.updatedAt.addingTimeInterval(60))],
            asOf: price.updatedAt.addingTimeInterval(60), isDelta: true)
        _ = store.apply(delta, source: .live, at: price.updatedAt.addingTimeInterval(60))
        let afterDelta = store.current
        let slot = try require(afterDelta.snapshot.slot(of: wa.id))
        let text = String(decoding: afterDelta.rendered.fragments[slot], as: UTF8.self)
        #expect(text.contains(PriceTenths(tenths: price.price.tenths + 10).description))
        // The other states' stations keep their bodies; the repriced one has a new one.
        let oldSlot = try require(afterFailure.snapshot.slot(of: wa.id))
        let repricedShared = Self.sameBuffer(afterDelta.rendered.detailBodies[slot], afterFailure.rendered.detailBodies[oldSlot])
        #expect(!repricedShared)
        let nsw = try require(afterDelta.snapshot.entries.firstIndex { $0.station.state == .NSW })
        let nswBefore = try require(afterFailure.snapshot.slot(of: afterDelta.snapshot.entries[nsw].id))
        let nswShared = Self.sameBuffer(afterDelta.rendered.detailBodies[nsw], afterFailure.rendered.detailBodies[nswBefore])
        #expect(nswShared)
    }

    static func sameBuffer(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { x in b.withUnsafeBufferPointer { y in x.baseAddress == y.baseAddress } }
    }
}

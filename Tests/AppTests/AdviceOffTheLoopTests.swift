import Foundation
import Fuel
import HTTP
import Synchronization
import Testing
@testable import API
@testable import App

/// The advice board is built off the event loops: when a snapshot is published (by the writer, before readers
/// see it) and ahead of each boundary a city's clock crosses, so a request only reads it.
@Suite struct AdviceOffTheLoopTests {
    /// 2026-11-24 09:00 in Sydney (22:00 UTC the day before): NSW live, its next boundary Sydney's midnight.
    static let start = Date(timeIntervalSince1970: 1_795_471_200)
    static let sydneyMidnight = Date(timeIntervalSince1970: 1_795_525_200)

    final class Clock: Sendable {
        private let now = Mutex(AdviceOffTheLoopTests.start)
        func read() -> Date { now.withLock { $0 } }
        func set(_ date: Date) { now.withLock { $0 = date } }
    }

    static func liveNSW(at wall: Date) -> ProviderUpdate {
        let station = StationRecord(
            key: StationKey(provider: .nsw, sourceID: "live-1"), name: "Live Servo", brand: "Ampol", address: "1 George St",
            suburb: "Sydney", state: .NSW, postcode: "2000", location: Coordinate(latitude: -33.87, longitude: 151.21))
        let price = PriceRecord(station: station.key, fuel: .U91, price: PriceTenths(tenths: 1_899), updatedAt: wall.addingTimeInterval(-3_600))
        return ProviderUpdate(provider: .nsw, stations: [station], prices: [price], asOf: wall)
    }

    func make(_ clock: Clock) -> (context: PettyContext, store: PettyStore) {
        let store = makePettyStore(AppTestSupport.sampleDataset, clock: { clock.read() })
        let context = PettyContext(store: store, clock: { clock.read() }, startedAt: clock.read(), appStoreID: nil)
        store.preparing(with: context.prepareAdvice)
        return (context, store)
    }

    @Test func aPublishedSnapshotAlreadyHasItsBoard() throws {
        let clock = Clock()
        let (context, store) = make(clock)
        let before = store.current
        #expect(context.keptAdviceBoards(before, at: clock.read()).current == nil)
        let report = store.apply(Self.liveNSW(at: clock.read()), source: .live, at: clock.read())
        #expect(report.isApplied)
        let view = store.current
        #expect(view.version != before.version)
        let kept = try #require(context.keptAdviceBoards(view, at: clock.read()).current)
        #expect(kept.version == view.version)
        #expect(context.adviceBoard(view) === kept)
    }

    @Test func theNextBoardIsBuiltAheadOfTheBoundaryAndAnswersFromIt() throws {
        let clock = Clock()
        let (context, store) = make(clock)
        store.apply(Self.liveNSW(at: clock.read()), source: .live, at: clock.read())
        let view = store.current
        let current = context.adviceBoard(view)
        #expect(current.expiresAt == Self.sydneyMidnight)

        // Outside the lead: nothing is built yet, and the warmer is due back at the lead.
        clock.set(Self.sydneyMidnight.addingTimeInterval(-AdviceBoardWarmer.lead - 1))
        #expect(context.prepareNextAdvice(lead: AdviceBoardWarmer.lead) == Self.sydneyMidnight.addingTimeInterval(-AdviceBoardWarmer.lead))
        #expect(context.keptAdviceBoards(view, at: Self.sydneyMidnight).next == nil)

        // Inside it: the board for midnight is built and kept beside the current one.
        clock.set(Self.sydneyMidnight.addingTimeInterval(-1))
        #expect(context.prepareNextAdvice(lead: AdviceBoardWarmer.lead) == Self.sydneyMidnight)
        let next = try #require(context.keptAdviceBoards(view, at: Self.sydneyMidnight).next)
        #expect(next.builtAt == Self.sydneyMidnight)
        // Before midnight the current board still answers; from midnight the one built ahead does.
        #expect(context.adviceBoard(view) === current)
        clock.set(Self.sydneyMidnight)
        #expect(context.adviceBoard(view) === next)
        clock.set(Self.sydneyMidnight.addingTimeInterval(0.5))
        #expect(context.adviceBoard(view) === next)
    }
}

import Foundation
import Testing

@testable import Fuel

/// One bad feed must not poison the data, or the merge rules for the feeds after it.
@Suite struct FeedPoisoningTests {
    let later = Fixture.now.addingTimeInterval(1_800)

    /// A live provider with `count` stations.
    func live(_ provider: ProviderID = .wa, count: Int, state: AustralianState = .WA) -> MergeResult {
        Fixture.merge(Fixture.update(provider, count: count, state: state))
    }

    @Test func ghostStationsAreRefusedAndCannotLockOutRealFeeds() {
        let known = live(count: 380)
        let ghosts = Fixture.update(.wa, count: 1_380, state: .WA, asOf: later)
        let refused = Fixture.merge(ghosts, into: known.snapshot, registry: known.registry, at: later)
        guard case .rejected(let reason) = refused.report.outcome else { Issue.record("\(refused.report.outcome)"); return }
        #expect(reason.hasPrefix("implausible growth"))
        #expect(refused.snapshot.stationCount == 380)
        #expect(refused.snapshot.version == known.snapshot.version, "a refused feed moves no ETag")
        // The real feed afterwards is still accepted.
        let real = Fixture.merge(Fixture.update(.wa, count: 380, state: .WA, asOf: later), into: refused.snapshot, registry: refused.registry, at: later)
        #expect(real.report.isApplied)
        #expect(real.snapshot.status(of: .wa)?.growthRejections == nil)
    }

    @Test func aGrowthSeenInThreeFeedsInARowIsReal() {
        var result = live(count: 100)
        let grown = Fixture.update(.wa, count: 200, state: .WA, asOf: later)
        for attempt in 1...FeedPolicy.confirmationsForGrowth {
            result = Fixture.merge(grown, into: result.snapshot, registry: result.registry, at: later)
            #expect(result.report.isApplied == (attempt == FeedPolicy.confirmationsForGrowth), "attempt \(attempt)")
        }
        #expect(result.snapshot.stationCount == 200)
        // A modest growth goes through at once.
        let modest = Fixture.merge(Fixture.update(.wa, count: 220, state: .WA, asOf: later), into: result.snapshot, registry: result.registry, at: later)
        #expect(modest.report.isApplied && modest.snapshot.stationCount == 220)
    }

    @Test func aFeedWithHalfTheStationsCannotHalveTheProviderAgainAndAgain() {
        let known = live(.vic, count: 1_000, state: .VIC)
        let half = Fixture.update(.vic, count: 510, state: .VIC, asOf: later)
        let once = Fixture.merge(half, into: known.snapshot, registry: known.registry, at: later)
        #expect(once.report.isApplied)
        #expect(once.snapshot.stationCount == 1_000)
        #expect(once.report.stationsPendingRemoval == 490)
        // A relisted station leaves the pending list.
        let back = Fixture.merge(Fixture.update(.vic, count: 1_000, state: .VIC, asOf: later), into: once.snapshot, registry: once.registry, at: later)
        #expect(back.snapshot.status(of: .vic)?.pendingRemoval == nil)
        #expect(back.snapshot.stationCount == 1_000)
    }

    @Test func aDuplicateRowDatedInTheFutureNeverWins() throws {
        let known = live(.nsw, count: 2, state: .NSW)
        let update = ProviderUpdate(
            provider: .nsw, stations: ["1", "2"].map { Fixture.station(.nsw, $0) },
            prices: [
                Fixture.price(.nsw, "1", 1_950, at: later),
                Fixture.price(.nsw, "1", 990, at: Fixture.date("2099-01-01T00:00:00Z")),
                Fixture.price(.nsw, "2", 1_960, at: later),
            ],
            asOf: later)
        let result = Fixture.merge(update, into: known.snapshot, registry: known.registry, at: later)
        #expect(result.report.futureRows == 1)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_950))
        #expect(result.snapshot.entries.allSatisfy { $0.prices.allSatisfy { $0.updatedAt <= later } })
    }

    @Test func aThousandKilometreMoveKeepsTheKnownLocation() throws {
        let known = live(.nsw, count: 2, state: .NSW)
        var moved = Fixture.update(.nsw, count: 2, asOf: later)
        moved.stations[0].location = Coordinate(latitude: -31.95, longitude: 115.86)  // Perth, ~3,300 km away
        moved.stations[1].location = Coordinate(latitude: -33.8701, longitude: 151.2101)  // a few metres: a fix
        let result = Fixture.merge(moved, into: known.snapshot, registry: known.registry, at: later)
        #expect(result.report.heldMoves == 1)
        #expect(result.snapshot[1]?.station.location == Coordinate(latitude: -33.87, longitude: 151.21))
        #expect(result.snapshot[2]?.station.location == Coordinate(latitude: -33.8701, longitude: 151.2101))
    }

    @Test func aHugeNameIsCutToLength() throws {
        var update = Fixture.update(.nsw, count: 1)
        // Ten thousand times the cap: the cut does not depend on how far past it a name goes, and every extra
        // character costs a grapheme count in a debug build (the 12 MB of the hostile feed took seconds).
        update.stations[0].name = String(repeating: "A", count: 1_200_000)
        let result = Fixture.merge(update)
        #expect(result.report.truncatedTexts == 1)
        #expect(result.snapshot[1]?.station.name.count == FeedPolicy.maxTextLength)
    }

    @Test func controlCharactersInTextsBecomeSpaces() throws {
        var update = Fixture.update(.nsw, count: 1)
        update.stations[0].name = "Shell\tColes\u{1B}[31m Express"
        update.stations[0].address = "1 Main St\r\nSydney"
        let result = Fixture.merge(update)
        #expect(result.report.truncatedTexts == 1)
        #expect(result.snapshot[1]?.station.name == "Shell Coles [31m Express")
        #expect(result.snapshot[1]?.station.address == "1 Main St  Sydney")
        #expect(!FeedPolicy.hasControlCharacters(result.snapshot[1]!.station.name))
    }

    @Test func anOutlierKeepsTheLastGoodPriceBesideAGoodNewOne() throws {
        let first = Fixture.merge(ProviderUpdate(
            provider: .sa, stations: [Fixture.station(.sa, "1", state: .SA)],
            prices: [Fixture.price(.sa, "1", 1_899), Fixture.price(.sa, "1", 2_099, fuel: .DL)], asOf: Fixture.now))
        let next = ProviderUpdate(
            provider: .sa, stations: [Fixture.station(.sa, "1", state: .SA)],
            prices: [Fixture.price(.sa, "1", 99_999, at: later), Fixture.price(.sa, "1", 2_119, fuel: .DL, at: later)], asOf: later)
        let result = Fixture.merge(next, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.keptOnOutlier == 1)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_899))
        #expect(result.snapshot[1]?.price(of: .DL)?.price == PriceTenths(tenths: 2_119))
    }
}

/// Two rows for one station and fuel in one feed: the newest wins, whichever comes first.
@Suite struct DuplicateRowTests {
    @Test(arguments: [false, true])
    func theNewestOfTwoDuplicateRowsWins(newestFirst: Bool) {
        let older = Fixture.price(.nsw, "1", 1_899, at: Fixture.now.addingTimeInterval(-3_600))
        let newer = Fixture.price(.nsw, "1", 1_859, at: Fixture.now)
        let update = ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "1")], prices: newestFirst ? [newer, older] : [older, newer], asOf: Fixture.now)
        let result = Fixture.merge(update)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_859))
        #expect(result.snapshot[1]?.price(of: .U91)?.updatedAt == Fixture.now)
    }
}

/// A feed speaks only for its own provider: rows naming another provider's stations are dropped and counted,
/// never merged over that provider's data.
@Suite struct ForeignRowTests {
    @Test func rowsForAnotherProvidersStationsAreDropped() throws {
        let nsw = Fixture.merge(Fixture.update(.nsw, count: 1))
        let later = Fixture.now.addingTimeInterval(1_800)
        let update = ProviderUpdate(
            provider: .tas,
            stations: [Fixture.station(.tas, "9", state: .TAS), Fixture.station(.nsw, "1", name: "Hijacked")],
            prices: [Fixture.price(.tas, "9", 1_999, at: later), Fixture.price(.nsw, "1", 999, at: later)],
            asOf: later)
        let result = Fixture.merge(update, into: nsw.snapshot, registry: nsw.registry, at: later)
        #expect(result.report.isApplied)
        #expect(result.report.orphanPrices == 2)  // the NSW station record and its price row
        let nswStation = try #require(result.snapshot.entries.first { $0.station.provider == .nsw })
        #expect(nswStation.station.name != "Hijacked")
        #expect(nswStation.price(of: .U91) == nsw.snapshot.entries.first?.price(of: .U91))
        #expect(result.snapshot.entries.filter { $0.station.provider == .tas }.count == 1)
    }
}

/// `seenAt` is what incremental sync pages by: a price re-confirmed unchanged keeps the instant it was first seen,
/// and the same price set again by the retailer (a new `updatedAt`) is a change seen now.
@Suite struct SeenAtTests {
    @Test func anUnchangedPriceKeepsItsSeenAtAndAResetPriceIsSeenNow() throws {
        let set = Fixture.now.addingTimeInterval(-3_600)
        let first = Fixture.merge(ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "1")], prices: [Fixture.price(.nsw, "1", 1_899, at: set)], asOf: Fixture.now))
        let seen = try #require(first.snapshot[1]?.price(of: .U91)?.seenAt)

        let later = Fixture.now.addingTimeInterval(1_800)
        let same = Fixture.merge(ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "1")], prices: [Fixture.price(.nsw, "1", 1_899, at: set)], asOf: later),
            into: first.snapshot, registry: first.registry, at: later)
        #expect(same.snapshot[1]?.price(of: .U91)?.seenAt == seen)

        let reset = Fixture.merge(ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "1")], prices: [Fixture.price(.nsw, "1", 1_899, at: later)], asOf: later),
            into: first.snapshot, registry: first.registry, at: later)
        #expect(reset.snapshot[1]?.price(of: .U91)?.seenAt == later)
        #expect(reset.snapshot[1]?.price(of: .U91)?.updatedAt == later)
    }
}

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

    /// A row dated in the future is refused like an outlier: the station's last good price stays, and no removal
    /// reaches the change feed.
    @Test func aRowDatedInTheFutureKeepsTheLastGoodPrice() throws {
        let known = live(.qld, count: 2, state: .QLD)
        var update = Fixture.update(.qld, count: 2, tenths: 1_800, state: .QLD, asOf: later)
        update.prices[0].updatedAt = later.addingTimeInterval(3 * 3_600)
        let result = Fixture.merge(update, into: known.snapshot, registry: known.registry, at: later)
        #expect(result.report.isApplied && result.report.futureRows == 1 && result.report.pricesRemoved == 0)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_901), "the held price, not a removal")
        #expect(result.snapshot[2]?.price(of: .U91)?.price == PriceTenths(tenths: 1_802))
    }

    /// The feed's date is its newest row kept: one row dated days ahead, dropped, must not date the feed (and the
    /// provider) at the merge instant, or the corrected feed after it is refused as hours old.
    @Test func aRowDatedAheadDoesNotDateTheFeedAndItsCorrectionIsTaken() throws {
        let t0 = Fixture.now
        let known = Fixture.merge(Fixture.update(.qld, count: 10, tenths: 1_850, state: .QLD, asOf: t0), at: t0)
        var ahead = Fixture.update(.qld, count: 10, tenths: 1_850, state: .QLD, asOf: t0)
        ahead.prices[0].updatedAt = t0.addingTimeInterval(3 * 86_400)
        ahead.asOf = ahead.prices[0].updatedAt
        let merged = Fixture.merge(ahead, into: known.snapshot, registry: known.registry, at: t0.addingTimeInterval(7 * 3_600))
        #expect(merged.report.isApplied && merged.report.futureRows == 1)
        #expect(merged.snapshot.status(of: .qld)?.asOf == t0)
        let corrected = Fixture.update(.qld, count: 10, tenths: 1_850, state: .QLD, asOf: t0)
        let next = Fixture.merge(corrected, into: merged.snapshot, registry: merged.registry, at: t0.addingTimeInterval(7 * 3_600 + 600))
        #expect(next.report.isApplied, "\(next.report.outcome)")
    }

    /// A feed that lists every station but prices a few (a partial answer) is refused: pricing a fuel at fewer than
    /// half of the stations holding it. At half it is a market, and a rare fuel may go.
    @Test func aFullListPricingFewerThanHalfTheStationsOfAFuelIsRefused() throws {
        let known = live(.qld, count: 100, state: .QLD)
        var partial = Fixture.update(.qld, count: 100, tenths: 1_800, state: .QLD, asOf: later)
        partial.prices = Array(partial.prices.prefix(49))
        let refused = Fixture.merge(partial, into: known.snapshot, registry: known.registry, at: later)
        guard case .rejected(let reason) = refused.report.outcome else { Issue.record("\(refused.report.outcome)"); return }
        #expect(reason.contains("U91 priced at 49 stations, fewer than half of the 100"), "\(reason)")
        #expect(refused.snapshot.version == known.snapshot.version && refused.snapshot.priceCount == 100)

        var half = Fixture.update(.qld, count: 100, tenths: 1_800, state: .QLD, asOf: later)
        half.prices = Array(half.prices.prefix(50))
        #expect(Fixture.merge(half, into: known.snapshot, registry: known.registry, at: later).report.isApplied)

        // One product's channel answering empty (WA's LPG, say) is the same broken list, for that fuel alone.
        var withLPG = Fixture.update(.wa, count: 40, state: .WA)
        withLPG.prices += (1...40).map { Fixture.price(.wa, String($0), 1_100, fuel: .LPG) }
        let wa = Fixture.merge(withLPG)
        let noLPG = Fixture.merge(Fixture.update(.wa, count: 40, state: .WA, asOf: later), into: wa.snapshot, registry: wa.registry, at: later)
        #expect(!noLPG.report.isApplied && noLPG.snapshot.priceCount == 80)

        // A fuel gone for good is taken once feeds have shown it for a day (`FeedPolicy.minimumAbsence`): WA's LPG
        // channel closed for ever must not freeze every other fuel's prices with it.
        let since = try #require(noLPG.snapshot.status(of: .wa)?.shrinkSince)
        #expect(since == later && noLPG.snapshot.version == wa.snapshot.version)
        let dayLess = later.addingTimeInterval(FeedPolicy.minimumAbsence - 60)
        let stillRefused = Fixture.merge(Fixture.update(.wa, count: 40, state: .WA, asOf: dayLess), into: noLPG.snapshot, registry: noLPG.registry, at: dayLess)
        #expect(!stillRefused.report.isApplied && stillRefused.snapshot.status(of: .wa)?.shrinkSince == later)
        let dayOn = later.addingTimeInterval(FeedPolicy.minimumAbsence)
        let taken = Fixture.merge(Fixture.update(.wa, count: 40, state: .WA, asOf: dayOn), into: stillRefused.snapshot, registry: stillRefused.registry, at: dayOn)
        #expect(taken.report.isApplied && taken.snapshot.priceCount == 40 && taken.snapshot.status(of: .wa)?.shrinkSince == nil)

        var rare = Fixture.update(.wa, count: 40, state: .WA)
        rare.prices += (1...(FeedPolicy.minimumStationsForFuelShrink - 1)).map { Fixture.price(.wa, String($0), 1_100, fuel: .LPG) }
        let small = Fixture.merge(rare)
        let gone = Fixture.merge(Fixture.update(.wa, count: 40, state: .WA, asOf: later), into: small.snapshot, registry: small.registry, at: later)
        #expect(gone.report.isApplied, "a fuel at \(FeedPolicy.minimumStationsForFuelShrink - 1) stations may leave the market")
    }

    /// A live feed older than the live data held (a stale cache): refused as stale beyond the tolerance, and below it
    /// no price goes back in time.
    @Test func anOlderCopyOfALiveFeedNeverTakesPricesBackInTime() throws {
        let hourAgo = later.addingTimeInterval(-3_600)
        let known = Fixture.merge(Fixture.update(.qld, count: 10, tenths: 1_850, state: .QLD, asOf: hourAgo), at: hourAgo)
        let old = Fixture.update(.qld, count: 10, tenths: 1_790, state: .QLD, asOf: hourAgo.addingTimeInterval(-10 * 86_400))
        let refused = Fixture.merge(old, into: known.snapshot, registry: known.registry, at: later)
        guard case .rejected(let reason) = refused.report.outcome else { Issue.record("\(refused.report.outcome)"); return }
        #expect(reason.hasPrefix("stale feed") && refused.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_851), "\(reason)")

        // Within the tolerance: the feed is taken, but each held price dated after its row stays.
        var behind = Fixture.update(.qld, count: 10, tenths: 1_790, state: .QLD, asOf: hourAgo.addingTimeInterval(-600))
        behind.prices[1].updatedAt = later
        let merged = Fixture.merge(behind, into: known.snapshot, registry: known.registry, at: later)
        #expect(merged.report.isApplied && merged.report.keptNewer == 9)
        #expect(merged.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_851))
        #expect(merged.snapshot[2]?.price(of: .U91)?.price == PriceTenths(tenths: 1_792), "a newer row still moves its price")

        // A price a delta set after the feed was made is not one the feed could list: it stays.
        var e10 = Fixture.update(.qld, count: 1, tenths: 1_700, state: .QLD, asOf: hourAgo.addingTimeInterval(60), isDelta: true)
        e10.stations = []
        e10.prices = [Fixture.price(.qld, "1", 1_720, fuel: .E10, at: hourAgo.addingTimeInterval(60))]
        let delta = Fixture.merge(e10, into: known.snapshot, registry: known.registry, at: hourAgo.addingTimeInterval(60))
        let copy = Fixture.merge(Fixture.update(.qld, count: 10, tenths: 1_850, state: .QLD, asOf: hourAgo), into: delta.snapshot, registry: delta.registry, at: later)
        #expect(copy.report.isApplied && copy.report.pricesRemoved == 0)
        #expect(copy.snapshot[1]?.price(of: .E10)?.price == PriceTenths(tenths: 1_720))

        // Sample data is judged by its own capture instant: live data replaces older samples, never the reverse rule.
        let sample = Fixture.merge(Fixture.update(.qld, count: 10, tenths: 1_850, state: .QLD, asOf: hourAgo), source: .sample, at: hourAgo)
        let live = Fixture.merge(old, into: sample.snapshot, registry: sample.registry, at: later)
        #expect(live.report.isApplied && live.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_791))
    }

    /// A coordinate off the globe (a feed's 1e300) never enters the snapshot: every map and distance reads it.
    @Test func aLocationOffTheGlobeKeepsTheKnownOneOrLeavesANewStationOut() throws {
        let known = live(.nsw, count: 2, state: .NSW)
        var broken = Fixture.update(.nsw, count: 3, asOf: later)
        broken.stations[0].location = Coordinate(latitude: 1e300, longitude: 151.2)
        broken.stations[2].location = Coordinate(latitude: .nan, longitude: 151.2)
        let result = Fixture.merge(broken, into: known.snapshot, registry: known.registry, at: later)
        #expect(result.report.isApplied && result.report.heldMoves == 1)
        #expect(result.snapshot[1]?.station.location == Coordinate(latitude: -33.87, longitude: 151.21))
        #expect(result.snapshot.stationCount == 2 && result.snapshot.entries.allSatisfy { $0.station.location.isValid })
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

import Foundation
import Testing

@testable import Fuel

@Suite struct SnapshotMergeTests {
    let later = Fixture.date("2026-01-15T03:00:00Z")

    @Test func aFullUpdateAddsStationsWithPricesAndAStatus() {
        let result = Fixture.merge(Fixture.update(.nsw, count: 3))
        #expect(result.report.outcome == .applied)
        #expect(result.report.stationsAdded == 3)
        #expect(result.report.pricesChanged == 3)
        #expect(result.snapshot.version == 1)
        #expect(result.snapshot[2]?.price(of: .U91)?.price == PriceTenths(tenths: 1_902))
        let status = result.snapshot.status(of: .nsw)
        #expect(status?.source == .live)
        #expect(status?.stationCount == 3)
        #expect(status?.priceCount == 3)
        #expect(status?.asOf == Fixture.now)
    }

    @Test func aFullUpdateReplacesTheProvidersStationsAndPrices() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 4))
        let replacement = ProviderUpdate(
            provider: .nsw,
            stations: ["1", "2", "3", "5"].map { Fixture.station(.nsw, $0) },
            prices: [Fixture.price(.nsw, "1", 2_000), Fixture.price(.nsw, "2", 1_902), Fixture.price(.nsw, "5", 1_950)],
            asOf: later)
        let result = Fixture.merge(replacement, into: first.snapshot, registry: first.registry, at: later)
        // Station 4 is unlisted once: kept with its price until enough feeds in a row agree it is gone.
        #expect(result.snapshot.entries.map(\.station.sourceID) == ["1", "2", "3", "5", "4"].sorted { Int($0)! < Int($1)! })
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 2_000))
        #expect(result.snapshot[3]?.prices.isEmpty == true)
        #expect(result.report.stationsAdded == 1)
        #expect(result.report.stationsRemoved == 0)
        #expect(result.report.stationsPendingRemoval == 1)
        #expect(result.report.pricesChanged == 2)
        #expect(result.report.pricesRemoved == 1)
        #expect(result.snapshot.status(of: .nsw)?.asOf == later)
        #expect(result.snapshot.status(of: .nsw)?.pendingRemoval == ["4": 1])

        let second = Fixture.merge(replacement, into: result.snapshot, registry: result.registry, at: later)
        #expect(second.snapshot.entries.count == 5)
        // Three feeds within the hour are not enough: the absence must also last `FeedPolicy.minimumAbsence`.
        let soon = Fixture.merge(replacement, into: second.snapshot, registry: second.registry, at: later.addingTimeInterval(3_600))
        #expect(soon.snapshot.entries.count == 5)
        #expect(soon.snapshot.status(of: .nsw)?.pendingRemoval == ["4": 3])
        let third = Fixture.merge(
            replacement, into: soon.snapshot, registry: soon.registry, at: later.addingTimeInterval(FeedPolicy.minimumAbsence))
        #expect(third.snapshot.entries.map(\.station.sourceID) == ["1", "2", "3", "5"])
        #expect(third.report.stationsRemoved == 1)
        #expect(third.snapshot.status(of: .nsw)?.pendingRemoval == nil)
    }

    @Test func aFullUpdateLeavesOtherProvidersAlone() {
        let wa = Fixture.merge(Fixture.update(.wa, count: 2, state: .WA))
        let both = Fixture.merge(Fixture.update(.nsw, count: 2), into: wa.snapshot, registry: wa.registry)
        let nswAgain = Fixture.merge(
            Fixture.update(.nsw, count: 2, tenths: 1_700), into: both.snapshot, registry: both.registry)
        #expect(nswAgain.snapshot.entries.filter { $0.station.provider == .wa } == wa.snapshot.entries)
        #expect(nswAgain.snapshot.stationCount == 4)
    }

    @Test func aDeltaChangesOnlyThePricesItLists() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 3))
        let delta = ProviderUpdate(
            provider: .nsw, stations: [],
            prices: [Fixture.price(.nsw, "2", 1_799, at: later), Fixture.price(.nsw, "2", 2_100, fuel: .DL, at: later)],
            asOf: later, isDelta: true)
        let result = Fixture.merge(delta, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.outcome == .applied)
        #expect(result.report.pricesChanged == 2)
        #expect(result.snapshot[2]?.prices.map(\.fuel) == [.U91, .DL])
        #expect(result.snapshot[2]?.price(of: .U91)?.updatedAt == later)
        #expect(result.snapshot[1] == first.snapshot[1])
        #expect(result.snapshot[3] == first.snapshot[3])
    }

    @Test func aDeltaCanAddAStation() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 2))
        let delta = ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "9")], prices: [Fixture.price(.nsw, "9", 1_888)],
            asOf: later, isDelta: true)
        let result = Fixture.merge(delta, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.snapshot.stationCount == 3)
        #expect(result.snapshot[3]?.station.sourceID == "9")
        #expect(result.report.stationsAdded == 1)
    }

    @Test func aDeltaPriceForAnUnknownStationIsCountedAsAnOrphan() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 2))
        let delta = ProviderUpdate(
            provider: .nsw, stations: [], prices: [Fixture.price(.nsw, "404", 1_888)], asOf: later, isDelta: true)
        let result = Fixture.merge(delta, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.orphanPrices == 1)
        #expect(result.snapshot.entries == first.snapshot.entries)
    }

    @Test func anEmptyFullUpdateIsRejectedAndChangesNothing() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 3))
        let empty = ProviderUpdate(provider: .nsw, stations: [], prices: [], asOf: later)
        let result = Fixture.merge(empty, into: first.snapshot, registry: first.registry, at: later)
        guard case .rejected = result.report.outcome else {
            Issue.record("expected a rejection, got \(result.report.outcome)")
            return
        }
        #expect(result.snapshot.entries == first.snapshot.entries)
        guard case .rejected(let reason) = result.report.outcome else { return }
        #expect(reason.contains("empty"))
        #expect(result.snapshot.status(of: .nsw)?.asOf == Fixture.now)
        #expect(result.snapshot == first.snapshot, "a rejected feed leaves the snapshot, its version and its ETags as they were")
    }

    @Test func anEmptyDeltaIsANormalQuietInterval() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 3))
        let empty = ProviderUpdate(provider: .nsw, stations: [], prices: [], asOf: later, isDelta: true)
        let result = Fixture.merge(empty, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.outcome == .applied)
        #expect(result.snapshot.entries == first.snapshot.entries)
        #expect(result.snapshot.status(of: .nsw)?.asOf == later)
    }

    @Test func aFullUpdateWithFewerThanHalfTheKnownStationsIsRejected() {
        let first = Fixture.merge(Fixture.update(.qld, count: 10, state: .QLD))
        let result = Fixture.merge(
            Fixture.update(.qld, count: 4, tenths: 1_500, state: .QLD), into: first.snapshot, registry: first.registry,
            at: later)
        guard case .rejected(let reason) = result.report.outcome else {
            Issue.record("expected a rejection")
            return
        }
        #expect(reason.contains("fewer than half"))
        #expect(result.snapshot.entries == first.snapshot.entries)
        #expect(result.snapshot == first.snapshot)
    }

    @Test func aFullUpdateWithExactlyHalfTheKnownStationsIsAccepted() {
        let first = Fixture.merge(Fixture.update(.qld, count: 10, state: .QLD))
        let half = Fixture.update(.qld, count: 5, state: .QLD)
        let result = Fixture.merge(half, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.outcome == .applied)
        #expect(result.snapshot.stationCount == 10, "the unlisted half stays until a stable majority of feeds agrees")
        let second = Fixture.merge(half, into: result.snapshot, registry: result.registry, at: later)
        let third = Fixture.merge(half, into: second.snapshot, registry: second.registry, at: later.addingTimeInterval(FeedPolicy.minimumAbsence))
        #expect(third.snapshot.stationCount == 5)
    }

    /// Sentinels (999.9) are dropped; typos are kept, flagged implausible (issue 48 §5).
    @Test func outliersAreDroppedPriceByPriceNotPerFeed() throws {
        let update = ProviderUpdate(
            provider: .sa, stations: ["1", "2"].map { Fixture.station(.sa, $0, state: .SA) },
            prices: [
                Fixture.price(.sa, "1", 1_899), Fixture.price(.sa, "1", 9_999, fuel: .DL),
                Fixture.price(.sa, "2", 499), Fixture.price(.sa, "2", 500, fuel: .LPG),
                Fixture.price(.sa, "2", 5_000, fuel: .P98), Fixture.price(.sa, "2", 5_001, fuel: .P95),
            ],
            asOf: Fixture.now)
        let result = Fixture.merge(update)
        #expect(result.report.outcome == .applied)
        #expect(result.report.rejectedOutliers == 1)
        #expect(result.snapshot[1]?.prices.map(\.fuel) == [.U91])
        let second = try #require(result.snapshot[2])
        #expect(second.prices.map(\.fuel) == [.U91, .P95, .P98, .LPG])
        let judge = result.snapshot.judge
        #expect(second.prices.map { judge.standing(of: $0, at: second.station).contains(.implausible) } == [true, true, false, false])
    }

    @Test func aFullUpdateWhosePricesAreAllOutliersIsRejected() {
        let first = Fixture.merge(Fixture.update(.sa, count: 2, state: .SA))
        let update = ProviderUpdate(
            provider: .sa, stations: ["1", "2"].map { Fixture.station(.sa, $0, state: .SA) },
            prices: [Fixture.price(.sa, "1", 9_999), Fixture.price(.sa, "2", 0)], asOf: later)
        let result = Fixture.merge(update, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.isApplied == false)
        #expect(result.snapshot.entries == first.snapshot.entries)
    }

    @Test func duplicatePriceRowsKeepTheNewest() {
        let update = ProviderUpdate(
            provider: .qld, stations: [Fixture.station(.qld, "1", state: .QLD)],
            prices: [Fixture.price(.qld, "1", 1_900, at: later), Fixture.price(.qld, "1", 1_800, at: Fixture.now)],
            asOf: later)
        #expect(Fixture.merge(update).snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_900))
    }

    @Test func recordsOfAnotherProviderAreNotMerged() {
        let update = ProviderUpdate(
            provider: .nsw, stations: [Fixture.station(.nsw, "1"), Fixture.station(.tas, "1", state: .TAS)],
            prices: [Fixture.price(.nsw, "1", 1_900), Fixture.price(.tas, "1", 1_900)], asOf: Fixture.now)
        let result = Fixture.merge(update)
        #expect(result.snapshot.stationCount == 1)
        #expect(result.report.orphanPrices == 2)
    }

    @Test func aPricesOnlyFullUpdateKeepsTheKnownStations() {
        let first = Fixture.merge(Fixture.update(.qld, count: 3, state: .QLD))
        let prices = ProviderUpdate(
            provider: .qld, stations: [], prices: ["1", "2"].map { Fixture.price(.qld, $0, 1_777, at: later) },
            asOf: later)
        let result = Fixture.merge(prices, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.snapshot.stationCount == 3)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_777))
        #expect(result.snapshot[3]?.prices.isEmpty == true)
        #expect(result.snapshot[3]?.station == first.snapshot[3]?.station)
    }

    @Test func stationDetailChangesAreReportedAsUpdates() {
        let first = Fixture.merge(Fixture.update(.vic, count: 2, state: .VIC))
        var update = Fixture.update(.vic, count: 2, state: .VIC, asOf: later)
        update.stations[0].brand = "Shell"
        let result = Fixture.merge(update, into: first.snapshot, registry: first.registry, at: later)
        #expect(result.report.stationsUpdated == 1)
        #expect(result.snapshot[1]?.station.brand == "Shell")
        #expect(result.snapshot[1]?.id == first.snapshot[1]?.id)
    }
}

@Suite struct MergeAsOfTests {
    @Test func aFutureAsOfIsClampedToNow() {
        let future = Fixture.now.addingTimeInterval(30 * 86_400)
        var update = Fixture.update(.nsw, count: 2)
        update.asOf = future
        let result = Fixture.merge(update)
        #expect(result.snapshot.status(of: .nsw)?.asOf == Fixture.now)
    }

    @Test func aDeltaNeverMovesAsOfBackwards() {
        let first = Fixture.merge(Fixture.update(.nsw, count: 2))
        let delta = ProviderUpdate(
            provider: .nsw, stations: [], prices: [], asOf: Fixture.now.addingTimeInterval(-3_600), isDelta: true)
        #expect(Fixture.merge(delta, into: first.snapshot, registry: first.registry).snapshot.asOf(.nsw) == Fixture.now)
    }
}

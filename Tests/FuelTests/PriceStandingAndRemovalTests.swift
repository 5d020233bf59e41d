import Foundation
import Testing

@testable import Fuel

/// A price NSW's full feed still lists stays current past the 30-day window, a Perth price is compared with Perth's
/// average (a country one with WA's), and removal takes time: a station a few feeds miss within the hour stays.
@Suite struct PriceStandingAndRemovalTests {
    static let asOf = Fixture.date("2026-01-15T02:00:00Z")
    static let days = 86_400.0

    /// NSW: four stations, one of them with a U91 price 45 days old (an LPG-like price nobody changed).
    static func nsw(provider: ProviderID = .nsw, at: Date = asOf) -> MergeResult {
        let update = ProviderUpdate(
            provider: provider, stations: ["1", "2", "3", "4"].map { Fixture.station(provider, $0) },
            prices: [
                Fixture.price(provider, "1", 1_800, at: at), Fixture.price(provider, "2", 1_900, at: at),
                Fixture.price(provider, "3", 1_700, at: at), Fixture.price(provider, "4", 1_850, at: asOf.addingTimeInterval(-45 * days)),
            ],
            asOf: at)
        return Fixture.merge(update, at: at)
    }

    static func standing(_ snapshot: Snapshot, _ id: String, provider: ProviderID = .nsw) -> PriceStanding? {
        let judge = PriceJudge(snapshot: snapshot)
        guard let entry = snapshot.entries.first(where: { $0.station.key == Fixture.key(provider, id) }), let price = entry.price(of: .U91)
        else { return nil }
        return judge.standing(of: price, at: entry.station)
    }

    @Test func aPriceNSWsFullFeedStillListsIsCurrentHoweverOld() {
        let merged = Self.nsw()
        #expect(merged.snapshot.status(of: .nsw)?.fullFeedAt == Self.asOf)
        #expect(Self.standing(merged.snapshot, "4") == .counts)  // was stale: 45 days old
        let average = Averages(snapshot: merged.snapshot).all.first { $0.state == .NSW && $0.fuel == .U91 }
        #expect(average?.stationCount == 4)
        // Elsewhere the window still applies to the same price.
        #expect(Self.standing(Self.nsw(provider: .qld).snapshot, "4", provider: .qld) == .stale)
    }

    @Test func withoutAFullFeedWithinTheWindowTheOldPriceIsStaleAgain() {
        let merged = Self.nsw()
        // Deltas only for 31 days: the full feed no longer vouches for anything.
        let later = Self.asOf.addingTimeInterval(31 * Self.days)
        let delta = ProviderUpdate(
            provider: .nsw, stations: [], prices: [Fixture.price(.nsw, "1", 1_810, at: later)], asOf: later, isDelta: true)
        let after = Fixture.merge(delta, into: merged.snapshot, registry: merged.registry, at: later)
        #expect(after.snapshot.status(of: .nsw)?.fullFeedAt == Self.asOf)
        #expect(Self.standing(after.snapshot, "4") == .stale)
        #expect(Self.standing(after.snapshot, "1") == .counts)
    }

    @Test func aStationTheFullFeedNoLongerListsIsNotVouchedFor() {
        let merged = Self.nsw()
        let next = Self.asOf.addingTimeInterval(3_600)
        let without4 = ProviderUpdate(
            provider: .nsw, stations: ["1", "2", "3"].map { Fixture.station(.nsw, $0) },
            prices: ["1", "2", "3"].map { Fixture.price(.nsw, $0, 1_800, at: next) }, asOf: next)
        let after = Fixture.merge(without4, into: merged.snapshot, registry: merged.registry, at: next)
        #expect(after.snapshot.status(of: .nsw)?.pendingRemoval == ["4": 1])
        #expect(Self.standing(after.snapshot, "4") == .stale)
    }

    @Test func aPerthPriceIsComparedWithPerthAndACountryPriceWithWA() throws {
        let asOf = Fixture.date("2026-04-22T00:00:00Z")
        let update = ProviderUpdate(
            provider: .wa,
            stations: [
                Fixture.station(.wa, "p1", state: .WA, latitude: -31.95, longitude: 115.86),
                Fixture.station(.wa, "p2", state: .WA, latitude: -31.90, longitude: 115.80),
                Fixture.station(.wa, "c1", state: .WA, latitude: -28.77, longitude: 114.61),  // Geraldton
            ],
            prices: [
                Fixture.price(.wa, "p1", 1_800, at: asOf), Fixture.price(.wa, "p2", 1_840, at: asOf),
                Fixture.price(.wa, "c1", 2_050, at: asOf),
            ],
            asOf: asOf)
        let index = FuelIndex(snapshot: Fixture.merge(update, at: asOf).snapshot)
        func slot(_ id: String) throws -> Int { try #require(index.snapshot.entries.firstIndex { $0.station.sourceID == id }) }
        // Perth 182.0; WA 189.67.
        let perth = try #require(index.versusAverageComparison(.U91, slot: try slot("p1")))
        #expect(perth.of == "perth")
        #expect(abs(perth.difference - -2.0) < 1e-9)  // was -9.67 against WA's mean
        let country = try #require(index.versusAverageComparison(.U91, slot: try slot("c1")))
        #expect(country.of == "WA")
        // Against the average as served (189.67, to the hundredth: issue 48 §7).
        #expect(abs(country.difference - (205.0 - 189.67)) < 1e-9)
        #expect(index.versusAverage(.U91, slot: try slot("p1")) == perth.difference)
    }

    @Test func aHalfListThreeTimesWithinTheHourRemovesNothingAndTheFullListIsNotGrowth() {
        let start = Fixture.date("2026-01-15T02:00:00Z")
        let full = Fixture.update(.nsw, count: 200, asOf: start)
        var result = Fixture.merge(full, at: start)
        for minutes in [10.0, 20, 30] {
            let at = start.addingTimeInterval(minutes * 60)
            result = Fixture.merge(Fixture.update(.nsw, count: 102, asOf: at), into: result.snapshot, registry: result.registry, at: at)
            #expect(result.report.isApplied)
        }
        #expect(result.snapshot.stationCount == 200)  // was 102: three feeds in half an hour removed 98
        #expect(result.snapshot.status(of: .nsw)?.pendingRemoval?.count == 98)
        let back = start.addingTimeInterval(3_600)
        result = Fixture.merge(Fixture.update(.nsw, count: 200, asOf: back), into: result.snapshot, registry: result.registry, at: back)
        #expect(result.report.isApplied)
        #expect(result.snapshot.status(of: .nsw)?.pendingRemoval == nil)
    }

    @Test func stationsReturningUnderTheirOwnIdsAreNeverGrowth() {
        let start = Fixture.date("2026-01-15T02:00:00Z")
        var result = Fixture.merge(Fixture.update(.nsw, count: 200, asOf: start), at: start)
        // Gone for three feeds over two days: removed.
        for day in [0.0, 1, 2] {
            let at = start.addingTimeInterval(day * Self.days + 600)
            result = Fixture.merge(Fixture.update(.nsw, count: 102, asOf: at), into: result.snapshot, registry: result.registry, at: at)
        }
        #expect(result.snapshot.stationCount == 102)
        // They come back, 98 at once (more than `growthAllowed(102)` = 25): the same ids, accepted at once.
        let back = start.addingTimeInterval(3 * Self.days)
        let returned = Fixture.merge(Fixture.update(.nsw, count: 200, asOf: back), into: result.snapshot, registry: result.registry, at: back)
        #expect(returned.report.isApplied)  // was refused twice as "implausible growth"
        #expect(returned.snapshot.stationCount == 200)
        #expect(returned.snapshot.entries.map(\.id) == (1...200).map { StationID($0) })
        #expect(returned.registry.lastAssigned == 200)
        // 98 stations never seen are still growth.
        let ghosts = ProviderUpdate(
            provider: .nsw, stations: (1...200).map { Fixture.station(.nsw, "g\($0)") },
            prices: (1...200).map { Fixture.price(.nsw, "g\($0)", 1_900, at: back) }, asOf: back)
        let refused = Fixture.merge(ghosts, into: result.snapshot, registry: result.registry, at: back)
        #expect(!refused.report.isApplied)
    }
}

import Foundation
import Testing

@testable import Fuel

/// Issue 48 §3: a live provider that has not been refreshed for longer than its limit has its prices stale; sample
/// data, judged by its own capture instant, never does.
@Suite struct QuietProvidersTests {
    let asOf = Fixture.now

    /// WA live as of `asOf`, NSW on sample data captured at the same instant.
    func mixed() -> Snapshot {
        let wa = Fixture.merge(Fixture.update(.wa, count: 3, state: .WA, asOf: asOf), at: asOf)
        return Fixture.merge(Fixture.update(.nsw, count: 3, asOf: asOf), into: wa.snapshot, registry: wa.registry, source: .sample, at: asOf)
            .snapshot
    }

    func standings(_ snapshot: Snapshot, _ provider: ProviderID) -> [PriceStanding] {
        let judge = PriceJudge(snapshot: snapshot)
        return snapshot.entries.filter { $0.station.provider == provider }.flatMap { entry in
            entry.prices.map { judge.standing(of: $0, at: entry.station) }
        }
    }

    @Test func aLiveProviderTurnsStaleJustAfterItsLimitAndNotBefore() {
        let snapshot = mixed()
        let limit = QuietProviders.limit(of: .wa)
        #expect(QuietProviders.limitDays[.wa] == 2)
        let before = snapshot.markingQuiet(at: asOf.addingTimeInterval(limit - 1))
        #expect(before.version == snapshot.version)
        #expect(standings(before, .wa).allSatisfy { $0 == .counts })

        let after = snapshot.markingQuiet(at: asOf.addingTimeInterval(limit))
        #expect(after.version == snapshot.version + 1)
        #expect(after.status(of: .wa)?.staleSince == asOf.addingTimeInterval(limit))
        #expect(standings(after, .wa).allSatisfy { $0.contains(.stale) })
        #expect(Averages(snapshot: after)[.WA, .U91] == nil)
        // Marked once: later calls change nothing.
        #expect(after.markingQuiet(at: asOf.addingTimeInterval(39 * 86_400)).version == after.version)
    }

    @Test func sampleDataNeverTurnsStaleHoweverLateTheWallClock() {
        let marked = mixed().markingQuiet(at: asOf.addingTimeInterval(400 * 86_400))
        #expect(marked.status(of: .nsw)?.staleSince == nil)
        #expect(standings(marked, .nsw).allSatisfy { $0 == .counts })
        #expect(Averages(snapshot: marked)[.NSW, .U91]?.stationCount == 3)
    }

    @Test func aRefreshClearsTheMark() {
        let later = asOf.addingTimeInterval(39 * 86_400)
        let marked = mixed().markingQuiet(at: later)
        #expect(marked.status(of: .wa)?.staleSince != nil)
        let refreshed = Fixture.merge(Fixture.update(.wa, count: 3, state: .WA, asOf: later), into: marked, at: later).snapshot
        #expect(refreshed.status(of: .wa)?.staleSince == nil)
        #expect(standings(refreshed, .wa).allSatisfy { $0 == .counts })
    }
}

import Foundation
import Testing

@testable import Fuel

@Suite struct SampleDataTests {
    let later = Fixture.date("2026-01-16T00:00:00Z")

    /// NSW and WA from bundled samples, as a first boot without provider keys does.
    func sampleSnapshot() -> MergeResult {
        let nsw = Fixture.merge(Fixture.update(.nsw, count: 6), source: .sample)
        return Fixture.merge(
            Fixture.update(.wa, count: 3, state: .WA), into: nsw.snapshot, registry: nsw.registry, source: .sample)
    }

    @Test func sampleDataMarksItsProvidersSample() {
        let samples = sampleSnapshot()
        #expect(samples.snapshot.status(of: .nsw)?.source == .sample)
        #expect(samples.snapshot.status(of: .wa)?.source == .sample)
    }

    @Test func liveDataReplacesTheSamplesOfOneProviderOnly() {
        let samples = sampleSnapshot()
        let live = ProviderUpdate(
            provider: .nsw, stations: ["2", "7"].map { Fixture.station(.nsw, $0) },
            prices: ["2", "7"].map { Fixture.price(.nsw, $0, 2_011, at: later) }, asOf: later)
        let result = Fixture.merge(live, into: samples.snapshot, registry: samples.registry, at: later)
        #expect(result.report.outcome == .applied)
        let nsw = result.snapshot.entries.filter { $0.station.provider == .nsw }
        #expect(nsw.map(\.station.sourceID) == ["2", "7"])
        #expect(result.snapshot.status(of: .nsw)?.source == .live)
        #expect(result.snapshot.entries.filter { $0.station.provider == .wa } == samples.snapshot.entries.filter { $0.station.provider == .wa })
        #expect(result.snapshot.status(of: .wa)?.source == .sample)
    }

    @Test func stationIdsSurviveTheSwapFromSampleToLive() {
        let samples = sampleSnapshot()
        let sampleID = samples.snapshot.entries.first { $0.station.key == Fixture.key(.nsw, "2") }?.id
        let result = Fixture.merge(Fixture.update(.nsw, count: 6, asOf: later), into: samples.snapshot, registry: samples.registry, at: later)
        let liveID = result.snapshot.entries.first { $0.station.key == Fixture.key(.nsw, "2") }?.id
        #expect(sampleID != nil)
        #expect(liveID == sampleID)
        #expect(result.snapshot.entries.map(\.id) == samples.snapshot.entries.map(\.id))
    }

    @Test func aSmallerLiveFeedStillReplacesSamples() {
        // The half rule protects live data, not samples.
        let samples = sampleSnapshot()
        let result = Fixture.merge(Fixture.update(.nsw, count: 1, asOf: later), into: samples.snapshot, registry: samples.registry, at: later)
        #expect(result.report.outcome == .applied)
        #expect(result.snapshot.status(of: .nsw)?.stationCount == 1)
    }

    @Test func samplesAreIgnoredOnceLiveDataIsServed() {
        let live = Fixture.merge(Fixture.update(.nsw, count: 3))
        let result = Fixture.merge(
            Fixture.update(.nsw, count: 6, tenths: 1_000), into: live.snapshot, registry: live.registry, source: .sample)
        guard case .ignored = result.report.outcome else {
            Issue.record("expected the sample to be ignored")
            return
        }
        #expect(result.snapshot == live.snapshot)
    }

    @Test func aLiveDeltaOnSampleDataKeepsTheProviderMarkedSample() {
        let samples = sampleSnapshot()
        let delta = ProviderUpdate(
            provider: .nsw, stations: [], prices: [Fixture.price(.nsw, "1", 1_555, at: later)], asOf: later, isDelta: true)
        let result = Fixture.merge(delta, into: samples.snapshot, registry: samples.registry, at: later)
        #expect(result.snapshot[1]?.price(of: .U91)?.price == PriceTenths(tenths: 1_555))
        #expect(result.snapshot.status(of: .nsw)?.source == .sample)
    }
}

import Foundation
import Testing

@testable import Fuel

/// A mixed deployment serves the bundled samples for the states it does not poll: those prices never move an alert.
@Suite struct AlertSampleDataTests {
    static let t = AlertWorld.utc("2026-03-02T00:00:00Z")

    /// NSW (stations below 100) on the samples, WA (100 and up) live.
    static func nswOnSamples(_ prices: [AlertWorld.Price], version: UInt64 = 1) -> FuelIndex {
        let live = AlertWorld.snapshot(version: version, at: t.addingTimeInterval(Double(version) * 60), prices)
        let statuses = live.statuses.map { status in
            var status = status
            if status.provider == .nsw { status.source = .sample }
            return status
        }
        return FuelIndex(snapshot: Snapshot(version: live.version, changedAt: live.changedAt, entries: live.entries, statuses: statuses))
    }

    @Test func aNewAlertOnASampleStationAlreadyBelowItsThresholdDecidesNothing() {
        let alerts = [AlertWorld.alert(1, .priceBelow, .stations([1]), threshold: 1_850),
                      AlertWorld.alert(2, .priceBelow, .stations([101]), threshold: 1_850)]
        let evaluator = AlertEvaluator(index: AlertIndex(alerts), tomorrowAnnounced: nil)
        let index = Self.nswOnSamples([.init(station: 1, tenths: 1_800), .init(station: 101, tenths: 1_800)])
        #expect(evaluator.seed(1, index: index, now: Self.t).decisions.isEmpty)
        #expect(evaluator.seed(2, index: index, now: Self.t).decisions.map(\.alertID) == [2])
    }

    @Test func aSamplePriceCrossingDecidesNothingWhileALiveOneDoes() {
        let alerts = [AlertWorld.alert(1, .priceBelow, .stations([1]), threshold: 1_850),
                      AlertWorld.alert(2, .priceBelow, .stations([101]), threshold: 1_850)]
        var evaluator = AlertEvaluator(index: AlertIndex(alerts), tomorrowAnnounced: nil)
        let before = Self.nswOnSamples([.init(station: 1, tenths: 1_900), .init(station: 101, tenths: 1_900)])
        let after = Self.nswOnSamples([.init(station: 1, tenths: 1_800), .init(station: 101, tenths: 1_800)], version: 2)
        let outcome = evaluator.evaluate(AlertPoll(index: after, after: before.snapshot, now: Self.t), states: [:])
        #expect(outcome.decisions.map(\.alertID) == [2])
    }
}

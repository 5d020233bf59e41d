import Foundation
import Testing

@testable import Fuel

/// The price kinds on both sides of each boundary, through the evaluator (index, changed prices, states).
struct AlertEvaluatorTests {
    typealias W = AlertWorld
    let t0 = W.utc("2026-12-01T03:00:00Z") // 14:00 in Sydney (AEDT)
    func at(_ minutes: Double) -> Date { t0.addingTimeInterval(minutes * 60) }

    /// Snapshots 1...n of station 1's U91 price, one a minute.
    func walk(_ alerts: [WatchedAlert], _ prices: [Int], states: inout AlertStates) -> [AlertOutcome] {
        var previous = W.snapshot(version: 1, at: at(0), [.init(station: 1, tenths: prices[0])])
        return prices.dropFirst().enumerated().map { offset, tenths in
            let next = W.snapshot(version: UInt64(offset + 2), at: at(Double(offset + 1)), [.init(station: 1, tenths: tenths)])
            defer { previous = next }
            return W.step(alerts, from: previous, to: next, states: &states)
        }
    }

    /// The index's lists follow its history (an edited alert's slot goes to the end of each list it is filed in);
    /// its decisions do not: a reloaded index decides the same rows in the same order.
    @Test func decisionsComeInTheOrderOfTheAlertsWhateverTheIndexsHistory() {
        let first = W.alert(1, .priceBelow, .stations([1]), threshold: 1_850)
        let second = W.alert(2, .priceBelow, .stations([1]), threshold: 1_850)
        var edited = AlertIndex([first, second])
        edited.upsert(first)
        let before = W.snapshot(version: 1, at: at(0), [.init(station: 1, tenths: 1_900)])
        let after = W.snapshot(version: 2, at: at(1), [.init(station: 1, tenths: 1_800)])
        let poll = AlertPoll(index: FuelIndex(snapshot: after), after: before, now: at(1))
        var evaluator = AlertEvaluator(index: edited)
        #expect(edited.watching(station: 1, fuel: .U91).map { edited.records[Int($0)].id } == [2, 1], "the edited alert was filed again, last")
        #expect(evaluator.evaluate(poll, states: [:]).decisions.map(\.alertID) == [1, 2])
    }

    @Test func priceBelowFiresAtTheThresholdExactlyAndNotATenthAbove() {
        let alert = W.alert(1, .priceBelow, .stations([1]), threshold: 1_850)
        var states: AlertStates = [:]
        let outcomes = walk([alert], [1_900, 1_851, 1_850], states: &states)
        #expect(outcomes[0].decisions.isEmpty, "185.1 is above 185.0")
        #expect(outcomes[1].decisions.map(\.key) == ["a1.s1.U91.v3"])
        #expect(outcomes[1].decisions.first?.message == "U91 is 185.0 c/L, at or below your 185.0")
        #expect(states[AlertStateKey(alertID: 1, station: 1)]?.armed == false)
    }

    @Test func priceBelowStaysQuietUntilAFullCentAboveTheThresholdThenFiresAgain() {
        let alert = W.alert(1, .priceBelow, .stations([1]), threshold: 1_850)
        var states: AlertStates = [:]
        let fired = walk([alert], [1_900, 1_840, 1_859, 1_845, 1_860, 1_849], states: &states).map { $0.decisions.count }
        // 184.0 fires; 185.9 (0.9 above) does not re-arm, so 184.5 is quiet; 186.0 re-arms; 184.9 fires again.
        #expect(fired == [1, 0, 0, 0, 1])
    }

    @Test func aStaleOrImplausiblePriceNeverTriggers() {
        let alert = W.alert(1, .priceBelow, .stations([1, 2]), threshold: 1_850)
        var states: AlertStates = [:]
        let before = W.snapshot(version: 1, at: at(0), [.init(station: 1, tenths: 1_900), .init(station: 2, tenths: 1_900)])
        let after = W.snapshot(version: 2, at: at(1), [
            .init(station: 1, tenths: 1_800, age: PricePolicy.currentMaxAge + 60), // stale
            .init(station: 2, tenths: 600), // far below the state's band: implausible
        ])
        #expect(W.step([alert], from: before, to: after, states: &states).decisions.isEmpty)
        #expect(states.isEmpty, "an uncounted price re-arms or disarms nothing")
    }

    @Test func aDropIsMeasuredFromTheLastNotifiedPrice() {
        let alert = W.alert(1, .priceDrop, .stations([1]), change: 50)
        var states: AlertStates = [:]
        let outcomes = walk([alert], [2_000, 1_951, 1_950, 1_901, 1_900], states: &states)
        // 195.1 is 4.9 below 200.0; 195.0 is 5.0: fires. Then from 195.0: 190.1 no, 190.0 yes.
        #expect(outcomes.map(\.decisions.count) == [0, 1, 0, 1])
        #expect(outcomes[1].decisions.first?.message == "U91 dropped 5.0 c/L to 195.0 c/L")
    }

    @Test func aRiseIsMeasuredTheOtherWayAndADropSaysNothing() {
        let alert = W.alert(1, .priceRise, .stations([1]), change: 30)
        var states: AlertStates = [:]
        let outcomes = walk([alert], [2_000, 1_900, 1_929, 1_930], states: &states)
        // Nothing notified yet: the reference is the price first seen (200.0) and stays there when the price drops.
        #expect(outcomes.map(\.decisions.count) == [0, 0, 0])
        let later = walk([alert], [1_930, 2_029, 2_030], states: &states)
        #expect(later.map(\.decisions.count) == [0, 1])
        #expect(later[1].decisions.first?.message == "U91 rose 3.0 c/L to 203.0 c/L")
    }

    @Test func anAlertWithNoReferenceMeasuresFromThePriceBeforeTheChange() {
        let alert = W.alert(1, .priceDrop, .stations([1]), change: 50)
        var states: AlertStates = [:]
        #expect(walk([alert], [2_000, 1_950], states: &states).map(\.decisions.count) == [1])
    }

    @Test func aNearAlertMatchesStationsWithinItsRadiusOnly() {
        // Station 1 is at 151.21, station 5 at 151.25: 3.7 km apart.
        let alert = W.alert(1, .priceBelow, .near(Coordinate(latitude: -33.87, longitude: 151.21), radiusKm: 3), threshold: 1_850)
        var states: AlertStates = [:]
        let before = W.snapshot(version: 1, at: at(0), [.init(station: 1, tenths: 1_900), .init(station: 5, tenths: 1_900)])
        let after = W.snapshot(version: 2, at: at(1), [.init(station: 1, tenths: 1_840), .init(station: 5, tenths: 1_800)])
        #expect(W.step([alert], from: before, to: after, states: &states).decisions.map(\.station) == [1])
    }

    @Test func anUnchangedPriceIsNotEvaluatedAgain() {
        let alert = W.alert(1, .priceBelow, .stations([1]), threshold: 1_850)
        var states: AlertStates = [:]
        let first = W.snapshot(version: 1, at: at(0), [.init(station: 1, tenths: 1_800)])
        // Snapshot 2 changes another station only; the alert (already below, never evaluated) is not touched.
        let second = W.snapshot(version: 2, at: at(1), [.init(station: 1, tenths: 1_800), .init(station: 2, tenths: 1_800)])
        var evaluator = AlertEvaluator(index: AlertIndex([alert]))
        var poll = AlertPoll(index: FuelIndex(snapshot: second), after: first, now: at(1))
        poll.changes.removeAll { $0.station == 1 }
        #expect(evaluator.evaluate(poll, states: states).decisions.isEmpty)
        #expect(W.step([alert], from: first, to: second, states: &states).decisions.count == 1, "the same poll with the change fires")
    }

    @Test func theIndexForgetsARemovedAlertAndFollowsAChangedOne() {
        var index = AlertIndex([W.alert(1, .priceBelow, .stations([1]), threshold: 1_850)])
        index.upsert(W.alert(1, .priceBelow, .stations([2]), threshold: 1_850))
        let location = W.station(1).location
        #expect(index.candidates(station: 1, fuel: .U91, at: location).watching.isEmpty)
        #expect(index.candidates(station: 2, fuel: .U91, at: location).watching == [1])
        index.remove(id: 1)
        #expect(index.candidates(station: 2, fuel: .U91, at: location).watching.isEmpty)
        #expect(index.count == 0)
    }
}

import Foundation
import Testing
import TestSupport

@testable import Fuel

/// `AlertStates` is read as a dictionary by the evaluator, the leader's load and the outbox: whatever it is inside,
/// every sequence of writes, overwrites and removals must leave it answering what a `Dictionary` would.
struct AlertStatesTests {
    /// Keys from a large space, at most `live` held at once: a small table (16 or 32 entries) where runs wrap
    /// around its end, and a large one where long runs form; removals move entries back within both.
    @Test(arguments: [(UInt64(1), 6), (2, 12), (3, 2_000), (4, 8_000)])
    func answersWhatADictionaryAnswersAfterEveryWriteAndRemoval(seed: UInt64, live: Int) {
        var random = SplitMix64(seed: seed)
        var states = AlertStates()
        var reference: [AlertStateKey: AlertState] = [:]
        func anyKey() -> AlertStateKey {
            AlertStateKey(alertID: Int64.random(in: 1...1_000_000, using: &random), station: StationID(Int.random(in: 0...9_000, using: &random)))
        }
        for step in 0..<20_000 {
            if reference.count >= live || (!reference.isEmpty && Int.random(in: 0..<3, using: &random) == 0) {
                let key = reference.keys.randomElement(using: &random)!
                states[key] = nil
                reference[key] = nil
            } else {
                let key = anyKey()
                let state = AlertState(armed: Bool.random(using: &random), reference: PriceTenths(tenths: step), referenceStation: key.station)
                states[key] = state
                reference[key] = state
            }
            if let held = reference.keys.randomElement(using: &random) { #expect(states[held] == reference[held]) }
            let probe = anyKey()
            #expect(states[probe] == reference[probe])
            #expect(states.count == reference.count)
        }
        #expect(Dictionary(uniqueKeysWithValues: states.map { ($0.key, $0.value) }) == reference, "iteration lists every state once")
        for key in reference.keys { #expect(states[key] == reference[key]) }
    }

    @Test func emptiedByRemovalsItHoldsNothingAndEqualsAnEmptyTable() {
        var states: AlertStates = [.area(1): AlertState(armed: false), AlertStateKey(alertID: 1, station: 7): AlertState(reference: PriceTenths(tenths: 1_799))]
        #expect(states.count == 2)
        states[.area(1)] = nil
        states[AlertStateKey(alertID: 1, station: 7)] = nil
        states[AlertStateKey(alertID: 9, station: 9)] = nil
        #expect(states.isEmpty)
        #expect(states == AlertStates())
        #expect(states[.area(1)] == nil)
    }

    @Test func mergeKeepsWhatTheCombineChoosesAndEqualityIgnoresOrder() {
        let a = AlertStateKey(alertID: 1, station: 2)
        let b = AlertStateKey(alertID: 3, station: 4)
        var states: AlertStates = [a: AlertState(armed: false)]
        states.merge([a: AlertState(armed: true), b: AlertState(reference: PriceTenths(tenths: 1_500))]) { $1 }
        #expect(states[a] == AlertState(armed: true))
        #expect(states[b] == AlertState(reference: PriceTenths(tenths: 1_500)))
        var reversed = AlertStates()
        reversed[b] = AlertState(reference: PriceTenths(tenths: 1_500))
        reversed[a] = AlertState(armed: true)
        #expect(states == reversed)
        reversed[a] = AlertState(armed: false)
        #expect(states != reversed, "a different state under one key is a different table")
    }
}

import Foundation
import Fuel
import Testing
@testable import Providers

@Suite struct ProviderStatusStoreTests {
    let now = Date(timeIntervalSince1970: 1_780_000_000)
    var later: Date { now.addingTimeInterval(600) }

    func report(_ outcome: MergeReport.Outcome, tomorrowOnly: Bool = false) -> PollOutcome.Result {
        var report = MergeReport(provider: .wa, source: .live, isDelta: false, outcome: outcome)
        report.isTomorrowOnly = tomorrowOnly
        return .merged(report)
    }

    @Test func aFailureIsCountedAndASuccessResetsTheCountButKeepsTheLastError() {
        let store = ProviderStatusStore()
        store.record(.failed(.timeout, request: "GET /x"), for: .nsw, next: later, at: now)
        var health = store.health(of: .nsw)
        #expect(health?.state == .failing)
        #expect(health?.lastError == "GET /x: timeout")
        #expect(health?.lastErrorAt == now)
        #expect(health?.consecutiveFailures == 1)
        #expect(health?.lastSuccess == nil)
        #expect(health?.nextPoll == later)

        var applied = MergeReport(provider: .nsw, source: .live, isDelta: true, outcome: .applied)
        applied.pricesChanged = 1
        store.record(.merged(applied), for: .nsw, next: later.addingTimeInterval(60), at: later)
        health = store.health(of: .nsw)
        #expect(health?.state == .ok)
        #expect(health?.consecutiveFailures == 0)
        #expect(health?.totalFailures == 1)
        #expect(health?.lastSuccess == later)
        #expect(health?.lastError == "GET /x: timeout", "kept for ops")
    }

    @Test func aRefusedFeedIsStaleAndTomorrowsPricesDoNotClearIt() {
        let store = ProviderStatusStore()
        store.record(report(.rejected(reason: "stale feed: dated 2026-04-21")), for: .wa, next: later, at: now)
        #expect(store.health(of: .wa)?.state == .stale)
        store.record(report(.applied, tomorrowOnly: true), for: .wa, next: later, at: later)
        #expect(store.health(of: .wa)?.state == .stale)
        #expect(store.health(of: .wa)?.lastSuccess == later)
        store.record(report(.applied), for: .wa, next: later, at: later)
        #expect(store.health(of: .wa)?.state == .ok)
    }

    @Test func anIgnoredFeedAndAnIdleStepAreNoFailures() {
        let store = ProviderStatusStore()
        store.record(report(.ignored(reason: "tomorrow feed misdated")), for: .wa, next: later, at: now)
        store.record(.idle("nothing due"), for: .wa, next: later, at: now)
        #expect(store.health(of: .wa)?.state == .ok)
        #expect(store.health(of: .wa)?.consecutiveFailures == 0)
        #expect(store.health(of: .wa)?.lastAttempt == now)
    }
}

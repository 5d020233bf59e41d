import API
import Foundation
import Fuel
import Providers

/// The merge side of the gate: an update that arrives after leadership ended is dropped.
struct GatedSink: ProviderSink {
    let inner: any ProviderSink
    let mayAct: @Sendable () -> Bool

    func apply(_ update: ProviderUpdate, at now: Date) -> MergeReport {
        guard mayAct() else {
            return MergeReport(provider: update.provider, source: .live, isDelta: update.isDelta, outcome: .ignored(reason: "not the fleet leader"))
        }
        return inner.apply(update, at: now)
    }

    func rollOver(at now: Date) {
        if mayAct() { inner.rollOver(at: now) }
    }

    func markQuiet(at now: Date) {
        if mayAct() { inner.markQuiet(at: now) }
    }

    func status(of provider: ProviderID) -> ProviderStatus? { inner.status(of: provider) }
}

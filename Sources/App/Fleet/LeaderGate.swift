import API
import Foundation
import Fuel
import Providers

/// Fencing inside the member: every poll step, every provider request (`ProviderClient.Options.gate`) and every
/// merge asks the gate first, so a leader whose lease deadline passed (a frozen process resuming, etcd
/// unreachable) makes no further provider call and changes nothing, even before its polling task is cancelled.
final class GatedPoller: ProviderPoller {
    let inner: any ProviderPoller
    let mayAct: @Sendable () -> Bool

    init(_ inner: any ProviderPoller, mayAct: @escaping @Sendable () -> Bool) {
        self.inner = inner
        self.mayAct = mayAct
    }

    var provider: ProviderID { inner.provider }
    var interval: TimeInterval { inner.interval }
    var plan: String { inner.plan }

    func poll(at now: Date, sink: any ProviderSink) async -> PollOutcome {
        guard mayAct() else { return PollOutcome(.idle("not the fleet leader"), next: now.addingTimeInterval(1)) }
        return await inner.poll(at: now, sink: sink)
    }
}

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

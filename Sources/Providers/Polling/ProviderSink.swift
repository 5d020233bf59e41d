import Foundation
import Fuel

/// Where pollers put what they fetched: the App implements it over its store (`FuelStoreSink` does that for any
/// `FuelStore`). Merge rules (empty, half-size, outliers) live in Fuel; transport errors never reach `apply`.
public protocol ProviderSink: Sendable {
    /// Merges `update` and records `nextPoll` in the same published step.
    func apply(_ update: ProviderUpdate, nextPoll: Date?, at now: Date) -> MergeReport
    /// Marks `provider` failing (its data untouched) and records `nextPoll`.
    func markFailure(_ provider: ProviderID, error: String, nextPoll: Date?, at now: Date)
    func setNextPoll(_ date: Date?, for provider: ProviderID, at now: Date)
    /// WA: roll tomorrow's prices into today's once their trading day has started. Cheap when nothing is due.
    func rollOver(at now: Date)
    func status(of provider: ProviderID) -> ProviderStatus?
}

/// A `ProviderSink` over a `FuelStore`: each call is one writer step, so a merge and its next-poll time are
/// published together (one re-derive, one persisted version).
public struct FuelStoreSink<Extra: Sendable>: ProviderSink {
    public let store: FuelStore<Extra>

    public init(store: FuelStore<Extra>) { self.store = store }

    public func apply(_ update: ProviderUpdate, nextPoll: Date?, at now: Date) -> MergeReport {
        var report: MergeReport?
        store.update { dataset in
            var (next, result) = dataset.merging(update, source: .live, at: now)
            report = result
            if let nextPoll { next.snapshot = next.snapshot.settingNextPoll(nextPoll, for: update.provider, at: now) }
            return next
        }
        return report!
    }

    public func markFailure(_ provider: ProviderID, error: String, nextPoll: Date?, at now: Date) {
        store.update { dataset in
            var next = dataset.markingFailure(provider: provider, error: error, at: now)
            if let nextPoll { next.snapshot = next.snapshot.settingNextPoll(nextPoll, for: provider, at: now) }
            return next
        }
    }

    public func setNextPoll(_ date: Date?, for provider: ProviderID, at now: Date) {
        store.update { dataset in
            guard dataset.snapshot.status(of: provider)?.nextPoll != date else { return dataset }
            var next = dataset
            next.snapshot = dataset.snapshot.settingNextPoll(date, for: provider, at: now)
            return next
        }
    }

    public func rollOver(at now: Date) { store.rollOver(at: now) }

    public func status(of provider: ProviderID) -> ProviderStatus? { store.current.snapshot.status(of: provider) }
}

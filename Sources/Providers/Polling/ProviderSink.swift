import Foundation
import Fuel

/// Where pollers put what they fetched: the App implements it over its store (`FuelStoreSink` does that for any
/// `FuelStore`). Merge rules (empty, half-size, outliers) live in Fuel; transport errors never reach `apply`.
public protocol ProviderSink: Sendable {
    /// Merges `update` in one published step.
    func apply(_ update: ProviderUpdate, at now: Date) -> MergeReport
    /// WA: roll tomorrow's prices into today's once their trading day has started. Cheap when nothing is due.
    func rollOver(at now: Date)
    /// Flags the prices of providers that have gone too long without a refresh (`QuietProviders`). Cheap when none is due.
    func markQuiet(at now: Date)
    /// What the snapshot holds of `provider` (counts, as-of, tomorrow's publication).
    func status(of provider: ProviderID) -> ProviderStatus?
}

/// A `ProviderSink` over a `FuelStore`: each call is one writer step (one re-render, one persisted version).
public struct FuelStoreSink<Rendered: Sendable>: ProviderSink {
    public let store: FuelStore<Rendered>

    public init(store: FuelStore<Rendered>) { self.store = store }

    public func apply(_ update: ProviderUpdate, at now: Date) -> MergeReport {
        store.apply(update, source: .live, at: now)
    }

    public func rollOver(at now: Date) { store.rollOver(at: now) }

    public func markQuiet(at now: Date) { store.markQuiet(at: now) }

    public func status(of provider: ProviderID) -> ProviderStatus? { store.current.snapshot.status(of: provider) }
}

import Foundation

extension Snapshot {
    /// Replays recorded updates (oldest `asOf` first) through a scratch snapshot, merging each as the live path
    /// does and handing every applied merge's snapshot, with its update, to `applied`. Returns `registry` grown by
    /// any station it did not know.
    static func replaying(
        _ updates: some Sequence<ProviderUpdate>, registry: StationRegistry, source: DataSource,
        applied: (Snapshot, ProviderUpdate) -> Void
    ) -> StationRegistry {
        var snapshot = Snapshot.empty
        var registry = registry
        for update in updates.sorted(by: { $0.asOf < $1.asOf }) {
            let result = snapshot.merging(update, registry: registry, source: source, at: update.asOf)
            guard result.report.isApplied else { continue }
            snapshot = result.snapshot
            registry = result.registry
            applied(snapshot, update)
        }
        return registry
    }
}

import Foundation

extension History {
    /// Builds history by merging recorded updates in `asOf` order into a scratch snapshot and recording
    /// each applied merge, as the live path does. For seeding 30+ days from recorded daily payloads.
    public static func replaying(
        _ updates: some Sequence<ProviderUpdate>, into history: History = History(), source: DataSource = .live
    ) -> History {
        var snapshot = Snapshot.empty
        var registry = StationRegistry()
        var history = history
        for update in updates.sorted(by: { $0.asOf < $1.asOf }) {
            let result = snapshot.merging(update, registry: registry, source: source, at: update.asOf)
            guard result.report.isApplied else { continue }
            snapshot = result.snapshot
            registry = result.registry
            history = history.recording(snapshot, provider: update.provider, describedDay: update.describedDay)
        }
        return history
    }
}

import Foundation

extension History {
    /// Builds history by merging recorded updates in `asOf` order into a scratch snapshot and recording
    /// each applied merge, as the live path does. For seeding 30+ days from recorded daily payloads.
    public static func replaying(
        _ updates: some Sequence<ProviderUpdate>, into history: History = History(), source: DataSource = .live
    ) -> History {
        var history = history
        _ = Snapshot.replaying(updates, registry: StationRegistry(), source: source) { snapshot, update in
            history = history.recording(snapshot, provider: update.provider, describedDay: update.describedDay)
        }
        return history
    }
}

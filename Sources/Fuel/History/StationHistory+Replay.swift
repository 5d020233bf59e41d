import Foundation

extension StationHistory {
    /// Replays recorded updates (oldest `asOf` first) through a scratch snapshot, recording each applied merge as the
    /// live path does. Ids come from `registry`, which is returned grown by any station it did not know, so the
    /// dataset that adopts it gives those stations the same ids the history is keyed by.
    public static func replaying(
        _ updates: some Sequence<ProviderUpdate>, registry: StationRegistry, into history: StationHistory = StationHistory(),
        source: DataSource = .live
    ) -> (history: StationHistory, registry: StationRegistry) {
        var history = history
        let registry = Snapshot.replaying(updates, registry: registry, source: source) { snapshot, update in
            history = history.recording(snapshot, provider: update.provider)
        }
        return (history, registry)
    }
}

extension StationHistory {
    /// The same tracks keyed by `target`'s ids: each station is found by its provider key in `source`. Tracks of
    /// stations `target` does not know are dropped.
    public func rekeyed(from source: StationRegistry, to target: StationRegistry) -> StationHistory {
        var tracks: [UInt64: PriceTrack] = [:]
        for (key, marks) in self.tracks {
            guard let fuel = Self.fuel(of: key), let stationKey = source.key(owning: Self.station(of: key)),
                let id = target.id(for: stationKey)
            else { continue }
            tracks[Self.key(id, fuel)] = marks
        }
        return StationHistory(tracks: tracks)
    }
}

import Foundation

/// What the store holds and the App persists: the snapshot, the id registry, the trend history, each station's price
/// history and the change log incremental sync reads. They change together, so one writer step updates all of them.
public struct Dataset: Hashable, Codable, Sendable {
    public var snapshot: Snapshot
    public var registry: StationRegistry
    public var history: History
    public var changes: ChangeLog
    public var stationHistory = StationHistory()

    /// A registry missing some of the snapshot's stations (restored without its file) adopts their ids; a change
    /// log that does not describe the snapshot (missing, or saved beside another one) starts again after it.
    public init(
        snapshot: Snapshot = .empty, registry: StationRegistry = StationRegistry(), history: History = History(),
        changes: ChangeLog? = nil, stationHistory: StationHistory = StationHistory()
    ) {
        self.snapshot = snapshot
        self.registry = registry.reconciled(with: snapshot)
        self.history = history
        self.changes = changes.flatMap { $0.describes(snapshot) ? $0 : nil } ?? ChangeLog(restartingAt: snapshot)
        self.stationHistory = stationHistory
    }

    /// Merges an update (see `Snapshot.merging`) and, when applied, records the trend points of the
    /// provider's states.
    public func merging(_ update: ProviderUpdate, source: DataSource = .live, at now: Date) -> (Dataset, MergeReport) {
        let result = snapshot.merging(update, registry: registry, source: source, at: now)
        var next = advanced(to: result.snapshot, at: now)
        next.registry = result.registry
        if result.report.isApplied {
            next.history = history.recording(result.snapshot, provider: update.provider, describedDay: update.describedDay)
            next.stationHistory = stationHistory.recording(result.snapshot, provider: update.provider)
        }
        return (next, result.report)
    }

    /// Rolls WA tomorrow prices into today's at 06:00 Perth and records the new day's trend points.
    /// Returns `self` unchanged when nothing rolls over.
    public func rollingOverTomorrow(at now: Date) -> Dataset {
        let rolled = snapshot.rollingOverTomorrow(at: now)
        guard rolled.version != snapshot.version else { return self }
        var next = advanced(to: rolled, at: now)
        let providers = Set(rolled.entries.lazy.filter { $0.station.state == .WA }.map(\.station.provider))
        next.history = providers.sorted().reduce(history) { $0.recording(rolled, provider: $1) }
        next.stationHistory = providers.sorted().reduce(stationHistory) { $0.recording(rolled, provider: $1) }
        return next
    }

    /// `next` as the snapshot, with the change log recording what changed from the current one: the two never move
    /// apart. A new version's changes are logged at its `changedAt` (`Snapshot.stamp(at:)`), as its prices are.
    func advanced(to next: Snapshot, at now: Date) -> Dataset {
        var dataset = self
        dataset.snapshot = next
        let stamp = next.version == snapshot.version ? now : next.changedAt ?? now
        dataset.changes = changes.recording(from: snapshot, to: next, at: stamp)
        return dataset
    }
}

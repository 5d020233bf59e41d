import Foundation

/// What the store holds and the App persists: the snapshot, the id registry, the trend history and each
/// station's price history. They change together, so one writer step updates all of them.
public struct Dataset: Hashable, Codable, Sendable {
    public var snapshot: Snapshot
    public var registry: StationRegistry
    public var history: History
    public var stationHistory = StationHistory()

    /// A registry missing some of the snapshot's stations (restored without its file) adopts their ids.
    public init(
        snapshot: Snapshot = .empty, registry: StationRegistry = StationRegistry(), history: History = History(),
        stationHistory: StationHistory = StationHistory()
    ) {
        self.snapshot = snapshot
        self.registry = registry.reconciled(with: snapshot)
        self.history = history
        self.stationHistory = stationHistory
    }

    /// Merges an update (see `Snapshot.merging`) and, when applied, records the trend points of the
    /// provider's states.
    public func merging(_ update: ProviderUpdate, source: DataSource = .live, at now: Date) -> (Dataset, MergeReport) {
        let result = snapshot.merging(update, registry: registry, source: source, at: now)
        var next = self
        next.snapshot = result.snapshot
        next.registry = result.registry
        if result.report.isApplied {
            next.history = history.recording(result.snapshot, provider: update.provider, describedDay: update.describedDay)
            next.stationHistory = stationHistory.recording(result.snapshot, provider: update.provider)
        }
        return (next, result.report)
    }

    public func markingFailure(provider: ProviderID, error: String, at now: Date) -> Dataset {
        var next = self
        next.snapshot = snapshot.markingFailure(provider: provider, error: error, at: now)
        return next
    }

    /// Rolls WA tomorrow prices into today's at 06:00 Perth and records the new day's trend points.
    /// Returns `self` unchanged when nothing rolls over.
    public func rollingOverTomorrow(at now: Date) -> Dataset {
        let rolled = snapshot.rollingOverTomorrow(at: now)
        guard rolled.version != snapshot.version else { return self }
        var next = self
        next.snapshot = rolled
        let providers = Set(rolled.entries.lazy.filter { $0.station.state == .WA }.map(\.station.provider))
        next.history = providers.sorted().reduce(history) { $0.recording(rolled, provider: $1) }
        next.stationHistory = providers.sorted().reduce(stationHistory) { $0.recording(rolled, provider: $1) }
        return next
    }
}

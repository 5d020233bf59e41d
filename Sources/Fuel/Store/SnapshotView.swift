/// One published state of the store: the dataset, what the domain derives from it once (the query index with its
/// averages, the change feed, each provider's clock), and the App's rendered form of it (pre-encoded JSON bodies
/// and ETags). Immutable; readers share it.
public final class SnapshotView<Rendered: Sendable>: Sendable {
    public let dataset: Dataset
    public let index: FuelIndex
    /// Incremental sync's feed; its end is the lists' `sync_token`.
    public let changeFeed: ChangeFeed
    /// Each provider's clock: time-dependent answers about a state are judged by its provider's.
    public let clocks: DataClocks
    public let rendered: Rendered

    public init(basis: SnapshotBasis, rendered: Rendered) {
        self.dataset = basis.dataset
        self.index = basis.index
        self.changeFeed = basis.changeFeed
        self.clocks = basis.clocks
        self.rendered = rendered
    }

    public var snapshot: Snapshot { dataset.snapshot }
    public var history: History { dataset.history }
    public var averages: Averages { index.averages }
    public var version: UInt64 { dataset.snapshot.version }
}

/// What the domain derives from a dataset before anything renders it: computed once per published dataset.
public struct SnapshotBasis: Sendable {
    public let dataset: Dataset
    public let index: FuelIndex
    public let changeFeed: ChangeFeed
    public let clocks: DataClocks

    public init(dataset: Dataset, index: FuelIndex) {
        self.dataset = dataset
        self.index = index
        self.changeFeed = ChangeFeed(index: index, log: dataset.changes)
        self.clocks = DataClocks(snapshot: dataset.snapshot)
    }

    public init(dataset: Dataset) {
        self.init(dataset: dataset, index: FuelIndex(snapshot: dataset.snapshot))
    }
}

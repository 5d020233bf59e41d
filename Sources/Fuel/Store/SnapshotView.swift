/// One published state of the store: the dataset, its query index (with averages) and the App's
/// own per-snapshot extras (e.g. pre-encoded JSON bodies and ETags). Immutable; readers share it.
public final class SnapshotView<Extra: Sendable>: Sendable {
    public let dataset: Dataset
    public let index: FuelIndex
    public let extra: Extra

    public init(dataset: Dataset, index: FuelIndex, extra: Extra) {
        self.dataset = dataset
        self.index = index
        self.extra = extra
    }

    public var snapshot: Snapshot { dataset.snapshot }
    public var history: History { dataset.history }
    public var averages: Averages { index.averages }
    public var version: UInt64 { dataset.snapshot.version }
}

import Foundation
import Synchronization

/// Holds the current `SnapshotView` and swaps in a new one in one step.
///
/// Readers (`current`) take a lock only to copy one reference, so they never wait on a writer's work.
/// Writers are serialised by a second lock and do all their work (merge, index, `render`) before the
/// swap, so a reader sees either the whole old view or the whole new one.
///
/// `render` runs once per published dataset; the App uses it to pre-encode hot responses.
public final class FuelStore<Rendered: Sendable>: Sendable {
    public typealias Render = @Sendable (SnapshotBasis) -> Rendered

    private let published: Mutex<SnapshotView<Rendered>>
    private let writer = Mutex<Void>(())
    private let render: Render
    private let preparation = Mutex<(@Sendable (SnapshotView<Rendered>) -> Void)?>(nil)

    public init(initial: Dataset, render: @escaping Render) {
        self.render = render
        let basis = SnapshotBasis(dataset: initial)
        published = Mutex(SnapshotView(basis: basis, rendered: render(basis)))
    }

    public convenience init(initial: Snapshot, render: @escaping Render) {
        self.init(initial: Dataset(snapshot: initial), render: render)
    }

    /// Runs `prepare` on every view about to be published, after it is rendered and before readers can see it, on
    /// the writer's thread: what the App derives from a view for its readers is ready by the time they read it.
    public func preparing(with prepare: @escaping @Sendable (SnapshotView<Rendered>) -> Void) {
        preparation.withLock { $0 = prepare }
    }

    /// The published view. Cheap: one lock round-trip and one retain.
    public var current: SnapshotView<Rendered> { published.withLock { $0 } }

    /// Publishes `dataset` as is.
    @discardableResult
    public func replace(with dataset: Dataset) -> SnapshotView<Rendered> {
        update { _ in dataset }
    }

    /// Runs `transform` on the current dataset, serialised with other writers, and publishes the result.
    /// If `transform` returns a dataset whose snapshot version and history are unchanged, nothing is
    /// re-rendered and the current view is returned.
    @discardableResult
    public func update<E: Error>(_ transform: (Dataset) throws(E) -> Dataset) throws(E) -> SnapshotView<Rendered> {
        try writer.withLock { (_: inout Void) throws(E) -> SnapshotView<Rendered> in
            let old = current
            let dataset = try transform(old.dataset)
            if dataset == old.dataset { return old }
            let index = dataset.snapshot == old.dataset.snapshot ? old.index : FuelIndex(snapshot: dataset.snapshot, previous: old.index)
            let basis = SnapshotBasis(dataset: dataset, index: index)
            let view = SnapshotView(basis: basis, rendered: render(basis))
            preparation.withLock { $0 }?(view)
            // Swap under the lock; the old view is released after it, never while readers wait.
            let replaced = published.withLock { current in
                let previous = current
                current = view
                return previous
            }
            withExtendedLifetime(replaced) {}
            return view
        }
    }

    /// Merges a provider update and publishes the result (see `Snapshot.merging`).
    @discardableResult
    public func apply(_ update: ProviderUpdate, source: DataSource = .live, at now: Date) -> MergeReport {
        var report: MergeReport?
        self.update { dataset in
            let (next, result) = dataset.merging(update, source: source, at: now)
            report = result
            return next
        }
        return report!
    }

    /// Flags the prices of every live provider that has gone longer than its limit without a refresh
    /// (`QuietProviders`); cheap to call on every poll step.
    public func markQuiet(at now: Date) {
        update { $0.markingQuiet(at: now) }
    }

    /// Rolls WA tomorrow prices over when a trading day has started; cheap to call every minute.
    public func rollOver(at now: Date) {
        update { $0.rollingOverTomorrow(at: now) }
    }
}

extension FuelStore where Rendered == Void {
    public convenience init(initial: Dataset = Dataset()) {
        self.init(initial: initial, render: { _ in () })
    }
}

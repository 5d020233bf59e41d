/// What persistence and replication need of a store, whatever it renders for the wire: read the published
/// dataset, publish a copied one, and keep the id high-water mark. `FuelStore` is one.
public protocol DatasetStore: AnyObject, Sendable {
    /// The published dataset (one lock round-trip).
    var dataset: Dataset { get }
    /// Publishes `dataset` as is.
    func publish(_ dataset: Dataset)
    /// Runs `transform` on the current dataset, serialised with other writers, and publishes the result.
    func modify(_ transform: (Dataset) -> Dataset)
}

extension FuelStore: DatasetStore {
    public var dataset: Dataset { current.dataset }
    public func publish(_ dataset: Dataset) { replace(with: dataset) }
    public func modify(_ transform: (Dataset) -> Dataset) { update(transform) }
}

extension DatasetStore {
    /// The highest station id this store has ever issued or been told of.
    public var idMark: Int { dataset.registry.lastAssigned }

    /// Raises the id mark to `mark` if it is higher (never lowers it); returns whether it rose. The registry then
    /// never issues an id at or below it, and the next save writes it to every file that keeps it.
    @discardableResult
    public func raiseIDMark(to mark: Int) -> Bool {
        guard mark > idMark else { return false }
        var rose = false
        modify { dataset in
            var next = dataset
            rose = next.registry.raiseMark(to: mark)
            return next
        }
        return rose
    }
}

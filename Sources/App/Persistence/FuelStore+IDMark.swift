import API
import Fuel

/// The id high-water mark as a value other parts can keep too (a fleet stores it in etcd under `/<fleet>/ids`):
/// read it to publish it, raise the store's from it after loading. The registry then never issues an id at or below
/// it, and the next save writes it to `snapshot.bin`, `changes.json` and `registry.json`.
extension FuelStore {
    /// The highest station id this store has ever issued or been told of.
    var idMark: Int { current.dataset.registry.lastAssigned }

    /// Raises the mark to `mark` if it is higher (never lowers it); returns whether it rose.
    @discardableResult
    func raiseIDMark(to mark: Int) -> Bool {
        guard mark > idMark else { return false }
        var rose = false
        update { dataset in
            var next = dataset
            rose = next.registry.raiseMark(to: mark)
            return next
        }
        return rose
    }
}

import Fuel

/// The fleet's id high-water mark (`/<fleet>/ids`) raised into the store's registry, so a member that becomes
/// leader after losing its files never hands out an id the fleet has already issued.
enum IDMark {
    static func raise(_ store: PettyStore, to mark: Int64) {
        guard mark > 0, mark <= Int64(LoadLimits.maxStationID), Int(mark) > store.current.dataset.registry.lastAssigned else { return }
        store.update { dataset in
            var dataset = dataset
            dataset.registry.raiseMark(to: Int(mark))
            return dataset
        }
    }
}

import Fuel

/// The fleet's id high-water mark (`/<fleet>/ids`) raised into the store's registry, so a member that becomes
/// leader after losing its files never hands out an id the fleet has already issued.
enum FleetIDHighWaterMark {
    static func raise(_ store: any DatasetStore, to mark: Int64) {
        guard mark > 0, mark <= Int64(LoadLimits.maxStationID) else { return }
        store.raiseIDMark(to: Int(mark))
    }
}

import Fuel

extension AppTestSupport {
    /// Every WA station of the sample and 20 of each other provider, with the sample's statuses, registry and
    /// history: for WA's rules (tomorrow's prices, share links across the switch to live RSS), where each merge or
    /// restart renders everything kept and the other providers only have to be there.
    static let sampleWithAllOfWA: Dataset = {
        let sample = sampleDataset
        var perProvider: [ProviderID: Int] = [:]
        let entries = sample.snapshot.entries.filter { entry in
            perProvider[entry.station.provider, default: 0] += 1
            return entry.station.state == .WA || perProvider[entry.station.provider]! <= 20
        }
        let snapshot = Snapshot(
            version: sample.snapshot.version, changedAt: sample.snapshot.changedAt, entries: entries, statuses: sample.snapshot.statuses)
        return Dataset(snapshot: snapshot, registry: sample.registry, history: sample.history)
    }()
}

extension Snapshot {
    /// The same snapshot (version, statuses) with only the stations whose key is in `keys`: a recorded panel's
    /// stations, so a trend point over them compares like with like.
    public func keeping(_ keys: Set<StationKey>) -> Snapshot {
        Snapshot(version: version, changedAt: changedAt, entries: entries.filter { keys.contains($0.station.key) }, statuses: statuses)
    }
}

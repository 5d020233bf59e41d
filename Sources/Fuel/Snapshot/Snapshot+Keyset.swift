/// Keyset paging's one rule: `after=X` lists the stations whose id is greater than X. Entries are in id order, so
/// that is every slot from `firstSlot(after: X)` on; every listing path compares slots with this bound.
extension Snapshot {
    /// The first slot whose station id is greater than `id` (`entries.count` when none is).
    public func firstSlot(after id: StationID) -> Int {
        entries.withUnsafeBufferPointer { entries in
            var low = 0, high = entries.count
            while low < high {
                let middle = (low + high) / 2
                if entries[middle].id <= id { low = middle + 1 } else { high = middle }
            }
            return low
        }
    }
}

extension Array where Element == Int {
    /// The first position of an ascending array holding a value of at least `bound`.
    func firstPosition(atLeast bound: Int) -> Int {
        var low = 0, high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < bound { low = middle + 1 } else { high = middle }
        }
        return low
    }
}

extension RandomAccessCollection {
    /// The index of the first element for which `isAfter` holds, in a collection where it holds for a suffix (a
    /// binary search: sorted changes by instant, by latitude).
    func partitionPoint(where isAfter: (Element) -> Bool) -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if isAfter(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}

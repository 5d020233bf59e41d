extension Array {
    func isSorted(by areInIncreasingOrder: (Element, Element) -> Bool) -> Bool {
        var index = 1
        while index < count {
            if areInIncreasingOrder(self[index], self[index - 1]) { return false }
            index += 1
        }
        return true
    }

    /// Puts the `k` smallest elements, sorted, at the front; the order of the rest is unspecified.
    /// A full sort when `k` is a large share of the array, otherwise a bounded max-heap pass.
    mutating func selectFirst(_ k: Int, by areInIncreasingOrder: (Element, Element) -> Bool) {
        guard k > 0 else { return }
        if k * 4 >= count {
            // A nearby list is a few dozen: insertion by shifting beats the standard sort's swaps there.
            if count <= Self.shortSort { insertionSort(by: areInIncreasingOrder) } else { sort(by: areInIncreasingOrder) }
            return
        }
        // Max-heap of the k best so far, kept in self[0..<k].
        func siftDown(_ start: Int, _ end: Int) {
            var parent = start
            while true {
                let left = 2 * parent + 1
                if left >= end { return }
                var largest = left
                let right = left + 1
                if right < end && areInIncreasingOrder(self[left], self[right]) { largest = right }
                if !areInIncreasingOrder(self[parent], self[largest]) { return }
                swapAt(parent, largest)
                parent = largest
            }
        }
        for index in stride(from: k / 2 - 1, through: 0, by: -1) { siftDown(index, k) }
        for index in k..<count where areInIncreasingOrder(self[index], self[0]) {
            swapAt(index, 0)
            siftDown(0, k)
        }
        self[0..<k].sort(by: areInIncreasingOrder)
    }

    /// Up to this many elements, `selectFirst` sorts by insertion.
    private static var shortSort: Int { 64 }

    /// A stable insertion sort: each element's place among the sorted ones before it is found by binary search (a
    /// nearby list arrives in map order, so a linear search mispredicts at every step), then the larger ones move up
    /// one place in a single move.
    private mutating func insertionSort(by areInIncreasingOrder: (Element, Element) -> Bool) {
        withUnsafeMutableBufferPointer { elements in
            guard elements.count > 1, let base = elements.baseAddress else { return }
            for index in 1..<elements.count where areInIncreasingOrder(elements[index], elements[index - 1]) {
                // The first sorted element the new one precedes: after every equal one, so equal elements keep their order.
                var low = 0, high = index - 1
                while low < high {
                    let middle = (low + high) / 2
                    if areInIncreasingOrder(elements[index], elements[middle]) { high = middle } else { low = middle + 1 }
                }
                let element = (base + index).move()
                (base + low + 1).moveInitialize(from: base + low, count: index - low)
                (base + low).initialize(to: element)
            }
        }
    }
}

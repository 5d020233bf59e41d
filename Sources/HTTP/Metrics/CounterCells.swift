import CEpoll

/// A fixed block of counters owned by one event loop: only that loop adds (relaxed atomic adds on its own cache
/// lines, so loops never contend), and a scrape reads every loop's block and sums them.
// @unchecked: the buffer is only touched through the C shim's atomic add and load.
final class CounterCells: @unchecked Sendable {
    private let cells: UnsafeMutablePointer<UInt64>
    let count: Int

    init(count: Int) {
        self.count = count
        // Padded on both sides by a cache line so two loops' blocks never share one.
        cells = .allocate(capacity: count + 16)
        cells.initialize(repeating: 0, count: count + 16)
    }

    deinit { cells.deallocate() }

    @inline(__always)
    func add(_ index: Int, _ amount: UInt64 = 1) {
        cepoll_counter_add(cells + 8 + index, amount)
    }

    func load(_ index: Int) -> UInt64 {
        cepoll_counter_load(cells + 8 + index)
    }
}

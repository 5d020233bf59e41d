/// Hands freed heap pages back to the operating system (glibc keeps them otherwise), so the resident size after
/// a burst of short-lived allocations returns to what the process really holds.
public enum MemoryPressure {
    public static func releaseFreePages() {
        Sys.trimHeap()
    }

    /// Allocations of `bytes` or more are mapped on their own and unmapped when freed. By default glibc raises this
    /// threshold to the largest block freed so far (up to 32 MB): after one poll's payload and decode buffers, the
    /// next poll's land in the heap among long-lived data and leave holes `releaseFreePages` cannot return, so the
    /// resident size of a polling server climbed poll after poll. A fixed threshold keeps them out of the heap.
    @discardableResult
    public static func mapLargeAllocationsAlone(atLeast bytes: Int32 = largeAllocationBytes) -> Bool {
        Sys.setMmapThreshold(bytes)
    }

    /// Above the largest response bodies a request builds (a 500-station page is about 400 KB), which stay in the
    /// heap as before; below a full provider payload.
    public static let largeAllocationBytes: Int32 = 1 << 20
}

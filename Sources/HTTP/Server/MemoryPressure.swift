/// Hands freed heap pages back to the operating system (glibc keeps them otherwise), so the resident size after
/// a burst of short-lived allocations returns to what the process really holds.
public enum MemoryPressure {
    public static func releaseFreePages() {
        SystemCall.trimHeap()
    }

    /// Allocations of `bytes` or more are mapped on their own and unmapped when freed. By default glibc raises this
    /// threshold to the largest block freed so far (up to 32 MB): after one burst of large short-lived buffers, the
    /// next burst's land in the heap among long-lived data and leave holes `releaseFreePages` cannot return, so the
    /// resident size climbs burst after burst. A fixed threshold keeps such buffers out of the heap.
    @discardableResult
    public static func mapLargeAllocationsAlone(atLeast bytes: Int32 = largeAllocationBytes) -> Bool {
        SystemCall.setMmapThreshold(bytes)
    }

    /// Above a large response body (hundreds of kilobytes stay in the heap as before), below bulk input of megabytes.
    public static let largeAllocationBytes: Int32 = 1 << 20
}

/// Hands freed heap pages back to the operating system (glibc keeps them otherwise), so the resident size after
/// a burst of short-lived allocations returns to what the process really holds.
public enum MemoryPressure {
    public static func releaseFreePages() {
        Sys.trimHeap()
    }
}
